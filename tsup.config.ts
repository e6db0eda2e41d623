import { defineConfig } from 'tsup';

// Three entry points: the library, the CLI bin, and the worker that piscina loads by file name.
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    cli: 'src/cli/bin.ts',
    worker: 'src/pool/worker.ts',
  },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  dts: { entry: { index: 'src/index.ts' } },
  sourcemap: true,
  clean: true,
  splitting: true,
});
