import { describe, expect, it } from 'vitest';
import { dealFromSeed } from '../../src/rules/deal';
import { resolveRules } from '../../src/rules/rules';
import { Solver } from '../../src/search/solver';
import { replayProblem } from './support';

/**
 * The memory budget (`memoryMiB`) is one for the transposition table and the search stack: the
 * table may fill what the stack does not hold (docs/algorithms.md, "The transposition table").
 */
describe('the memory budget', () => {
  const MiB = 1024 * 1024;
  /** Bytes of a table entry in these games: a header word, the rank and a key of four words. */
  const ENTRY_BYTES = 24;

  it('lets the table use what the stack of a Canfield search does not, and stops on memory there', () => {
    // Lost deals far bigger than the budget: both stop on memory, never with a verdict. The real
    // search alone (rule 13's one-card search would share the budget with a table of its own).
    for (const [game, seed] of [['canfield-sequences', 597], ['canfield', 396]] as const) {
      const budget = 8;
      const result = new Solver({ memoryMiB: budget, drawOneProof: false }).solve(dealFromSeed(resolveRules(game), seed), { timeLimitMs: 60_000 });
      expect(result.verdict, game).toBe('unknown');
      expect(result.reason, game).toBe('memory');
      // The entries alone pass 60% of the budget (with their slots, over 90%); a table held to
      // 80% of it keeps them near 55%.
      expect(result.uniqueStates * ENTRY_BYTES, game).toBeGreaterThan(0.6 * budget * MiB);
    }
  });

  it('still stops a deep depth-first path on memory, the stack and the table sharing the budget', () => {
    const result = new Solver({ memoryMiB: 4 }).solve(dealFromSeed(resolveRules('canister'), 159), { timeLimitMs: 60_000 });
    expect(result.verdict).toBe('unknown');
    expect(result.reason).toBe('memory');
    expect(result.uniqueStates).toBeGreaterThan(0);
  });

  // Canister's first two runs go on beside the restarts, each in a table of its own, so a small
  // budget fills sooner (docs/algorithms.md, "Canister's first two runs go on"). When it does, the
  // first runs give their memory back and the restarts go on with all of it.
  describe("Canister's first runs when memory runs out", () => {
    const canister12 = resolveRules('canister', { ranks: 12 });

    it('give their memory back to the restarts, which then win', () => {
      // Before: seed 18 stopped on memory at 0.5 MiB after 26,102 nodes, seed 135 threw (the
      // best-first run found no room for its root, and read an entry it had not written).
      for (const [seed, budget] of [
        [18, 0.5],
        [135, 2],
      ] as const) {
        const deal = dealFromSeed(canister12, seed);
        const result = new Solver({ memoryMiB: budget }).solve(deal, { timeLimitMs: 60_000 });
        expect(result.verdict, `seed ${seed}`).toBe('winnable');
        expect(replayProblem(deal, result.moves!), `seed ${seed}`).toBeUndefined();
      }
    });

    it('stop on memory, not with an error, when even the restarts find no room', () => {
      const result = new Solver({ memoryMiB: 2 }).solve(dealFromSeed(resolveRules('canister', { ranks: 11 }), 264), { timeLimitMs: 60_000 });
      expect(result.verdict).toBe('unknown');
      expect(result.reason).toBe('memory');
    });
  });
});
