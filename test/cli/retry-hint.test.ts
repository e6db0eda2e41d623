import { describe, expect, it } from 'vitest';
import type { WinRateResult } from '../../src/index';
import { retryHint } from '../../src/cli/run-summary';

/** A finished run's result, with its undecided deals stopped for `why` at `limits`, written to `file` (null: none). */
function run(limits: WinRateResult['limits'], why: Partial<WinRateResult['unknownReasons']>, file: string | null = 'runs/cf.msgpack'): WinRateResult {
  const unknownReasons = { nodes: 0, time: 0, memory: 0, other: 0, ...why };
  const unknown = unknownReasons.nodes + unknownReasons.time + unknownReasons.memory + unknownReasons.other;
  return { file: file ?? undefined, complete: true, unknown, unknownReasons, limits } as WinRateResult;
}

describe("winrate's retry line", () => {
  it('raises each limit that stopped a deal, ten times (memory twice), into a file beside the run', () => {
    expect(retryHint(run({ nodeLimit: null, timeLimitMs: 10_000, memoryMiB: 1900 }, { time: 3 }))).toBe(
      'the 3 undecided deals at higher limits: patience winrate --retry runs/cf.msgpack --time-limit 100 --out runs/cf-retry.msgpack',
    );
    expect(retryHint(run({ nodeLimit: 5000, timeLimitMs: 200, memoryMiB: 64 }, { nodes: 1, time: 1, memory: 1 }))).toBe(
      'the 3 undecided deals at higher limits: patience winrate --retry runs/cf.msgpack --time-limit 2 --node-limit 50000 --memory 128 --out runs/cf-retry.msgpack',
    );
    expect(retryHint(run({ nodeLimit: null, timeLimitMs: 300, memoryMiB: null }, { time: 1 }))).toContain('the 1 undecided deal at higher limits');
  });

  it('quotes a path the shell would split', () => {
    expect(retryHint(run({ nodeLimit: 100, timeLimitMs: null, memoryMiB: null }, { nodes: 2 }, "my runs/it's.msgpack"))).toBe(
      `the 2 undecided deals at higher limits: patience winrate --retry 'my runs/it'\\''s.msgpack' --node-limit 1000 --out 'my runs/it'\\''s-retry.msgpack'`,
    );
  });

  it('says nothing with no file, no undecided deal, an unfinished run, or no limit to raise', () => {
    const limits = { nodeLimit: null, timeLimitMs: 10_000, memoryMiB: 1900 };
    expect(retryHint(run(limits, { time: 2 }, null))).toBeUndefined();
    expect(retryHint(run(limits, {}))).toBeUndefined();
    expect(retryHint({ ...run(limits, { time: 2 }), complete: false })).toBeUndefined();
    // Deals whose solving threw are a bug to report, not a limit to raise.
    expect(retryHint(run(limits, { other: 2 }))).toBeUndefined();
  });
});
