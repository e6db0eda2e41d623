import { describe, expect, it, vi } from 'vitest';
import { dealFromSeed } from '../../src/rules/deal';
import { resolveRules } from '../../src/rules/rules';
import { bruteForce } from '../../src/referee/brute-force';
import { TableauSchedule } from '../../src/search/runs';
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

  it('gives a Solver reused after a deal that filled its budget the same room as a fresh one', () => {
    // canfield-relaxed at 4 MiB: deal 91 filled the budget, and its deep stack and grown tables
    // were kept for the next deal, so deal 104 stopped on memory after its first run (4,096 nodes),
    // as did 58 of deals 104-300. Now they give that memory back. (Deal 91 is won at 4 MiB since
    // its long run gives its memory up, below; deal 191 still fills the budget.)
    const rules = resolveRules('canfield-relaxed');
    const reused = new Solver({ memoryMiB: 4, nodeLimit: 2_000_000 });
    const first = reused.solve(dealFromSeed(rules, 191), { timeLimitMs: 60_000 });
    expect(first.reason).toBe('memory');
    for (const seed of [104, 108, 109]) {
      const deal = dealFromSeed(rules, seed);
      const again = reused.solve(deal, { timeLimitMs: 60_000 });
      const alone = new Solver({ memoryMiB: 4, nodeLimit: 2_000_000 }).solve(deal, { timeLimitMs: 60_000 });
      expect(alone.verdict, `seed ${seed}`).toBe('winnable');
      expect(again.verdict, `seed ${seed}`).toBe('winnable');
      expect(replayProblem(deal, again.moves!), `seed ${seed}`).toBeUndefined();
    }
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

    it('are dropped without a wrong verdict: small deals at a small budget against brute force', () => {
      // At 0.9 MiB the open list (over 300 KiB), three tables and three stacks do not all fit, so
      // first runs are dropped on these small deals (counted), and restarts go again.
      const drop = vi.spyOn(TableauSchedule.prototype, 'drop');
      let decided = 0;
      try {
        for (const piles of [3, 4]) {
          for (const ranks of [5, 6]) {
            const rules = resolveRules('canister', { ranks, piles });
            for (let seed = 1; seed <= 20; seed++) {
              const deal = dealFromSeed(rules, seed);
              const result = new Solver({ memoryMiB: 0.9, restartNodes: 64 }).solve(deal, { timeLimitMs: 60_000 });
              const where = `${piles} piles, ${ranks} ranks, seed ${seed}`;
              if (result.verdict === 'winnable') expect(replayProblem(deal, result.moves!), where).toBeUndefined();
              if (result.verdict === 'unknown') continue;
              const brute = bruteForce(deal, { maxStates: 20_000 });
              if (brute.verdict === 'unknown') continue;
              expect(result.verdict, where).toBe(brute.verdict);
              decided++;
            }
          }
        }
        expect(drop.mock.calls.length).toBeGreaterThan(5);
        expect(decided).toBeGreaterThan(40);
      } finally {
        drop.mockRestore();
      }
    });

    it('stop on memory, not with an error, when even the restarts find no room', () => {
      const result = new Solver({ memoryMiB: 2 }).solve(dealFromSeed(resolveRules('canister', { ranks: 11 }), 264), { timeLimitMs: 60_000 });
      expect(result.verdict).toBe('unknown');
      expect(result.reason).toBe('memory');
    });
  });

  // canfield-relaxed's long run waits in the Solver's table while the short runs go in theirs, so a
  // small budget fills sooner (docs/algorithms.md, "The long run"). When it does, the long run
  // gives its memory up and the short runs go on with all of it.
  describe("canfield-relaxed's long run when memory runs out", () => {
    it('gives its memory back to the short runs, which then win', () => {
      // Each stopped on memory at 4 MiB before, as did 131, 191, 240 and 252 of deals 1-300.
      const rules = resolveRules('canfield-relaxed');
      for (const seed of [91, 273, 290]) {
        const deal = dealFromSeed(rules, seed);
        const result = new Solver({ memoryMiB: 4, nodeLimit: 2_000_000 }).solve(deal, { timeLimitMs: 60_000 });
        expect(result.verdict, `seed ${seed}`).toBe('winnable');
        expect(replayProblem(deal, result.moves!), `seed ${seed}`).toBeUndefined();
      }
    });

    it('is given up without a wrong verdict: small deals at a small budget against brute force', () => {
      // At 0.68 MiB the long run's table and a short run's do not both fit for most of these deals,
      // so long runs are given up (counted), and the short runs prove losses alone: 7 of these 12
      // deals are proved lost, against 4 before, when a long run that filled the budget ended the
      // search (seeds 2, 4 and 8 stopped on memory then).
      const drop = vi.spyOn(Solver.prototype as unknown as { dropMainRun: () => number }, 'dropMainRun');
      const rules = resolveRules('canfield-relaxed', { ranks: 10, reserve: 10, piles: 2 });
      const verdicts = { winnable: 0, unwinnable: 0 };
      try {
        for (let seed = 1; seed <= 12; seed++) {
          const deal = dealFromSeed(rules, seed);
          const result = new Solver({ memoryMiB: 0.68, restartNodes: 64, nodeLimit: 3_000_000 }).solve(deal, { timeLimitMs: 60_000 });
          const where = `seed ${seed}`;
          if (result.verdict === 'unknown') continue;
          verdicts[result.verdict]++;
          // A win is replayed; a loss is searched again by brute force, to the end.
          if (result.verdict === 'winnable') expect(replayProblem(deal, result.moves!), where).toBeUndefined();
          else expect(bruteForce(deal, { maxStates: 400_000 }).verdict, where).toBe('unwinnable');
        }
        expect(drop.mock.calls.length).toBeGreaterThan(3);
        expect(verdicts.unwinnable).toBeGreaterThan(5);
      } finally {
        drop.mockRestore();
      }
    });

    it('stops on memory, not with an error, when even the short runs find no room', () => {
      const result = new Solver({ memoryMiB: 4, nodeLimit: 2_000_000 }).solve(dealFromSeed(resolveRules('canfield-relaxed'), 191), { timeLimitMs: 60_000 });
      expect(result.verdict).toBe('unknown');
      expect(result.reason).toBe('memory');
    });
  });
});
