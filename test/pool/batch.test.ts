// The batch runner, each worker's loop over its deals: the warm-up before its first timed deal.
import { describe, expect, it } from 'vitest';
import { CODE_ERROR } from '../../src/analyze/records';
import { BatchRunner, type BatchTask, ROW_FIELDS, ROWS_HEADER_BYTES, rowsBytes, type TestFaults, WARM_UP_NODES, WARM_UP_SEED } from '../../src/pool/batch';
import { dealFromSeed } from '../../src/rules/deal';
import { presetRules } from '../../src/rules/rules';
import { Solver } from '../../src/search/solver';
import type { SolveOptions } from '../../src/search/types';

const DEALS = [1, 2, 3, 4, 5, 6, 7, 8];

/** Runs the deals in one BatchRunner; returns it and each deal's [verdict code, nodes]. */
function runBatch(game: string, limits: SolveOptions, faults?: TestFaults): { runner: BatchRunner; rows: Array<[number, number]> } {
  const runner = new BatchRunner();
  const buffer = new ArrayBuffer(rowsBytes(DEALS.length));
  const task: BatchTask = { rules: presetRules(game), limits, saveSolutions: false, deals: Float64Array.from(DEALS), rows: buffer, faults };
  runner.run(task);
  const rows = new Float64Array(buffer, ROWS_HEADER_BYTES, DEALS.length * ROW_FIELDS);
  return { runner, rows: DEALS.map((_, i) => [rows[i * ROW_FIELDS + 1]!, rows[i * ROW_FIELDS + 2]!]) };
}

/** Each deal's nodes, solved by a fresh Solver with no time limit. */
const freshNodes = (game: string): number[] => DEALS.map((d) => new Solver().solve(dealFromSeed(presetRules(game), d), { nodeLimit: 2_000_000 }).nodes);

describe('a worker warms its solver up before its first timed deal', () => {
  it('searches other deals of the game first, under a time limit only, and every deal is searched as a fresh solver searches it', () => {
    for (const game of ['canfield-sequences', 'canfield', 'storehouse']) {
      const timed = runBatch(game, { timeLimitMs: 60_000 });
      expect(timed.runner.warmUpNodes, game).toBeGreaterThan(WARM_UP_NODES / 2);
      expect(timed.runner.warmUpNodes, game).toBeLessThanOrEqual(WARM_UP_NODES);
      // With no time limit a deal's verdict cannot depend on the engine's speed: no warm-up.
      const untimed = runBatch(game, { nodeLimit: 2_000_000 });
      expect(untimed.runner.warmUpNodes, game).toBe(0);
      // The warm-up changes no deal's search: the same verdicts and nodes as one fresh Solver a deal.
      const fresh = freshNodes(game);
      expect(timed.rows.map(([, nodes]) => nodes), game).toEqual(fresh);
      expect(untimed.rows.map(([, nodes]) => nodes), game).toEqual(fresh);
      expect(timed.rows.map(([code]) => code), game).toEqual(untimed.rows.map(([code]) => code));
    }
  });

  it('goes on with a fresh solver when a warm-up deal throws, and records no error against the run', () => {
    const { runner, rows } = runBatch('canfield-sequences', { timeLimitMs: 60_000 }, { throwOn: [WARM_UP_SEED + 1] });
    expect(runner.warmUpNodes).toBeGreaterThan(0);
    expect(runner.warmUpNodes).toBeLessThan(WARM_UP_NODES);
    expect(rows.map(([code]) => code)).not.toContain(CODE_ERROR);
    expect(rows.map(([, nodes]) => nodes)).toEqual(freshNodes('canfield-sequences'));
  });
});
