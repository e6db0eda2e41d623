import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dealFromSeed } from '../../src/rules/deal';
import { resolveRules, type RulesOptions } from '../../src/rules/rules';
import { bruteForce } from '../../src/referee/brute-force';
import { luby, Solver } from '../../src/search/solver';
import { replayProblem, solveCommand } from './support';

/**
 * The restarted search of the tableau-only games and canfield-relaxed (docs/algorithms.md,
 * "Restarts" and "Best-first runs"): with a first run of one node, almost every small deal is decided by a later run, depth-first
 * with a shuffled move order or best-first, and the verdict must still be brute force's, every
 * solution (traced back through the best-first parents) must replay to a win, and the node limit
 * must hold over the whole series.
 */

const SEED = 77_001;

/** Layouts of a small deal (rules options) and the brute-force state cap for each. */
type Small = { options: RulesOptions; maxStates: number };

/**
 * Solves small deals of `game` with a first run of one node, checks each against brute force and
 * replays each solution; at least `minDecided` of the cases must be decided by brute force.
 */
function agreesWhenRestarted(game: string, small: fc.Arbitrary<Small>, numRuns: number, minDecided: number): void {
  const solver = new Solver({ memoryMiB: 32, restartNodes: 1 });
  const counts = { cases: 0, decided: 0, restarted: 0, winnable: 0, unwinnable: 0 };
  fc.assert(
    fc.property(small, fc.integer({ min: 0, max: 2 ** 31 - 1 }), ({ options, maxStates }, seed) => {
      const start = dealFromSeed(resolveRules(game, options), seed);
      const where = solveCommand(game, options, seed);
      const result = solver.solve(start, { nodeLimit: 2_000_000 });
      expect(result.nodes, where).toBeLessThanOrEqual(2_000_000);
      if (result.verdict === 'winnable') expect(replayProblem(start, result.moves!), where).toBeUndefined();
      counts.cases++;
      if (result.nodes > 1) counts.restarted++;
      const brute = bruteForce(start, { maxStates });
      if (brute.verdict === 'unknown') return;
      expect(result.verdict, `${where} (brute force: ${brute.verdict} after ${brute.states} positions)`).toBe(brute.verdict);
      counts.decided++;
      counts[brute.verdict]++;
    }),
    { seed: SEED, numRuns },
  );
  expect(counts.decided / counts.cases).toBeGreaterThanOrEqual(minDecided);
  expect(counts.restarted / counts.cases).toBeGreaterThanOrEqual(0.5);
  expect(counts.winnable).toBeGreaterThan(0);
  expect(counts.unwinnable).toBeGreaterThan(0);
}

describe.each(['canister', 'american-canister', 'british-canister'])('%s, restarted from one node', (game) => {
  it('agrees with brute force and its solutions replay', () => {
    const small = fc
      .record({ ranks: fc.constantFrom(3, 4, 5), piles: fc.constantFrom(3, 4) })
      .map((options) => ({ options, maxStates: options.piles === 3 ? 20_000 : 2_000 }));
    agreesWhenRestarted(game, small, 150, 0.5);
  }, 300_000);

  it('stops at the node limit over all runs', () => {
    const start = dealFromSeed(resolveRules(game), 15);
    const result = new Solver({ restartNodes: 1000 }).solve(start, { nodeLimit: 50_000 });
    if (result.verdict === 'unknown') {
      expect(result.reason).toBe('nodes');
      expect(result.nodes).toBe(50_000);
    } else expect(result.nodes).toBeLessThanOrEqual(50_000);
  });
});

// canfield-relaxed restarts too, every run depth-first (its keys need the table's rank).
describe('canfield-relaxed, restarted from one node', () => {
  it('agrees with brute force and its solutions replay', () => {
    const small = fc
      .record({ ranks: fc.constantFrom(3, 4), reserve: fc.constantFrom(1, 2, 3) })
      .map(({ ranks, reserve }) => ({ options: { ranks, reserve, piles: 2, redeals: 0 }, maxStates: 20_000 }));
    agreesWhenRestarted('canfield-relaxed', small, 60, 0.3);
  }, 300_000);
});

// canfield-relaxed's run budgets follow the Luby sequence (docs/algorithms.md, "Restarts").
describe('the Luby sequence', () => {
  it('is 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ...', () => {
    expect(Array.from({ length: 15 }, (_, i) => luby(i + 1))).toEqual([1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    // Its first 2^k - 1 terms sum to k * 2^(k-1), and term 2^k - 1 is 2^(k-1).
    for (let k = 1; k <= 12; k++) {
      let sum = 0;
      for (let i = 1; i < 2 ** k; i++) sum += luby(i);
      expect(sum).toBe(k * 2 ** (k - 1));
      expect(luby(2 ** k - 1)).toBe(2 ** (k - 1));
    }
  });
});
