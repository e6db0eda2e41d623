import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readResults } from '../../src/analyze/results';
import { defaultMemoryMiB, MAX_DEFAULT_MEMORY_MIB, memoryWarning, MIN_DEFAULT_MEMORY_MIB } from '../../src/pool/memory';
import { winRate } from '../../src/pool/winrate';
import { expectError } from '../helpers';

const GiB = 2 ** 30;

describe('the default table memory per worker', () => {
  it('is 1,900 MiB (under 2 GiB resident) when the machine has it for every worker', () => {
    expect(MAX_DEFAULT_MEMORY_MIB).toBe(1900);
    expect(defaultMemoryMiB(2, 24 * GiB)).toBe(1900);
    expect(defaultMemoryMiB(1, 4 * GiB)).toBe(1900);
    expect(defaultMemoryMiB(0, 4 * GiB)).toBe(1900); // 0 workers: the main thread alone
  });

  it('is one worker\'s budget when no count is given, and refuses a count that is not one', () => {
    expect(defaultMemoryMiB()).toBe(defaultMemoryMiB(1));
    expectError(() => defaultMemoryMiB(Number.NaN), 'bad worker count NaN');
    expectError(() => defaultMemoryMiB(-2), 'bad worker count -2');
  });

  it('shares three quarters of the machine among the workers when that is less', () => {
    expect(defaultMemoryMiB(8, 8 * GiB)).toBe(768);
    expect(defaultMemoryMiB(3, 4 * GiB)).toBe(1024);
    expect(defaultMemoryMiB(64, 1 * GiB)).toBe(MIN_DEFAULT_MEMORY_MIB);
  });

  it('warns of a budget given by hand that the workers together could not have', () => {
    expect(memoryWarning(1900, 2, 24 * GiB)).toBeUndefined();
    expect(memoryWarning(12 * 1024, 2, 24 * GiB)).toBeUndefined(); // exactly the machine: allowed
    expect(memoryWarning(20_000, 2, 24 * GiB)).toBe(
      "--memory 20000 MiB for each of 2 workers (39.1 GiB in all) is more than this machine's 24.0 GiB: a hard deal may be killed by the system for want of memory instead of stopping as unknown",
    );
    // 0 or 1 workers: one table, in the main thread.
    expect(memoryWarning(30_000, 0, 24 * GiB)).toMatch(/^--memory 30000 MiB is more than this machine's 24\.0 GiB: /);
    // The defaults never warn, whatever the machine.
    for (const [workers, machine] of [[1, 1 * GiB], [2, 24 * GiB], [64, 8 * GiB], [3, 4 * GiB]] as const) {
      expect(memoryWarning(defaultMemoryMiB(workers, machine), workers, machine)).toBeUndefined();
    }
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
