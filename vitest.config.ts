import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Vitest's own default is one worker fewer than the cores, which on CI's two cores runs the files
    // one after another. The suite is nearly all solver work, so every core runs a file. No test
    // leans on having a core to itself: time limits are far above the work asked (node limits
    // bound the rest).
    maxWorkers: availableParallelism(),
  },
});
