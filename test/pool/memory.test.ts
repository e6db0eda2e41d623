import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readResults } from '../../src/analyze/results';
import { defaultMemoryMiB, MAX_DEFAULT_MEMORY_MIB, MIN_DEFAULT_MEMORY_MIB } from '../../src/pool/memory';
import { winRate } from '../../src/pool/winrate';

const GiB = 2 ** 30;

describe('the default table memory per worker', () => {
  it('is 1,900 MiB (under 2 GiB resident) when the machine has it for every worker', () => {
    expect(MAX_DEFAULT_MEMORY_MIB).toBe(1900);
    expect(defaultMemoryMiB(2, 24 * GiB)).toBe(1900);
    expect(defaultMemoryMiB(1, 4 * GiB)).toBe(1900);
    expect(defaultMemoryMiB(0, 4 * GiB)).toBe(1900); // 0 workers: the main thread alone
  });

  it('shares three quarters of the machine among the workers when that is less', () => {
    expect(defaultMemoryMiB(8, 8 * GiB)).toBe(768);
    expect(defaultMemoryMiB(3, 4 * GiB)).toBe(1024);
    expect(defaultMemoryMiB(64, 1 * GiB)).toBe(MIN_DEFAULT_MEMORY_MIB);
  });

  const dir = mkdtempSync(join(tmpdir(), 'patience-memory-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is written in the header of a run that names none, so a resumed run keeps it', async () => {
    const out = join(dir, 'default.msgpack');
    await winRate({ game: 'storehouse', deals: 3, nodeLimit: 1000, workers: 1, out });
    expect(readResults(out).header.limits.memoryMiB).toBe(defaultMemoryMiB(1, totalmem()));
    const named = join(dir, 'named.msgpack');
    await winRate({ game: 'storehouse', deals: 3, nodeLimit: 1000, memoryMiB: 48, workers: 1, out: named });
    expect(readResults(named).header.limits.memoryMiB).toBe(48);
  });
});
