import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dealFromSeed } from '../../src/rules/deal';
import { resolveRules } from '../../src/rules/rules';
import { Solver } from '../../src/search/solver';
import { bruteForceBoth, checkBruteForce, expectBothVerdicts, replayProblem, solveCommand } from './support';

/**
 * Rule 14 (docs/algorithms.md): where any card may fill a space at any time (canfield-relaxed), the
 * same deal with no card back from the foundations and the reserve's top filling a space at once
 * while the reserve lasts is a stricter game: each of its lines is a line of the real game (the
 * reserve card that fills a space at once is the real game's next move). Its wins are wins of the
 * real deal, and the solver searches it beside the real search for them.
 */

const SEED = 14_014;
const STRICTER = { spaces: 'auto-reserve-then-any', foundationToTableau: false } as const;
// Layouts small enough for brute force in canfield-relaxed, whose cards come and go.
const LAYOUTS = [
  { ranks: 3, reserve: 2, piles: 2 },
  { ranks: 4, reserve: 4, piles: 2 },
  { ranks: 4, reserve: 6, piles: 2 },
  { ranks: 5, reserve: 4, piles: 3 },
];

describe('canfield-relaxed under stricter rules', () => {
  // The rule itself, with no solver: brute force on both games.
  it('loses every small deal that the real game loses (brute force)', () => {
    const counts = { both: 0, stricterWins: 0, realOnly: 0 };
    fc.assert(
      fc.property(
        fc.constantFrom(...LAYOUTS),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (options, seed) => {
          const both = bruteForceBoth('canfield-relaxed', options, STRICTER, seed, 30_000);
          if (both === undefined) return;
          counts.both++;
          if (both.other === 'winnable') {
            expect(both.real, `${solveCommand('canfield-relaxed', options, seed)}: the stricter game wins a deal the real game loses`).toBe('winnable');
            counts.stricterWins++;
          } else if (both.real === 'winnable') counts.realOnly++;
        },
      ),
      { seed: SEED, numRuns: 80 },
    );
    // Not vacuous: the stricter game wins deals, and it is stricter (the real game wins more).
    expect(counts.both).toBeGreaterThan(30);
    expect(counts.stricterWins).toBeGreaterThan(10);
    expect(counts.realOnly).toBeGreaterThan(0);
  }, 300_000);

  // The solver with runs of a few nodes, so that the stricter game's search runs from the start.
  it('gives the verdicts of brute force, some of its wins found by the stricter game, every one replayed in the real game', () => {
    const solver = new Solver({ memoryMiB: 32, restartNodes: 2, stricterGame: true });
    const counts = { decided: 0, byStricter: 0, winnable: 0, unwinnable: 0 };
    fc.assert(
      fc.property(
        fc.constantFrom(...LAYOUTS),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (options, seed) => {
          const start = dealFromSeed(resolveRules('canfield-relaxed', options), seed);
          const where = solveCommand('canfield-relaxed', options, seed);
          const result = solver.solve(start, { nodeLimit: 500_000 });
          // The stricter game's wins are written as real moves: a reserve card filling a space
          // there is a move of its own here.
          if (result.verdict === 'winnable') expect(replayProblem(start, result.moves!), where).toBeUndefined();
          if (result.stricterGame?.outcome === 'winnable') {
            expect(result.verdict, where).toBe('winnable');
            expect(result.moves!.some((m) => m.kind === 'move' && m.autoFill !== undefined), where).toBe(false);
            counts.byStricter++;
          }
          checkBruteForce(start, result.verdict, where, counts, 30_000);
        },
      ),
      { seed: SEED, numRuns: 100 },
    );
    expectBothVerdicts(counts, 30);
    expect(counts.byStricter).toBeGreaterThan(5);
  }, 300_000);
});

describe('which searches the stricter game runs beside', () => {
  const solve = (game: string, options: Record<string, unknown>, stricterGame?: boolean | 'auto') =>
    new Solver({ restartNodes: 16 }).solve(dealFromSeed(resolveRules(game, options), 978), { nodeLimit: 20_000, stricterGame });

  it('runs by default in canfield-relaxed, where the real runs keep no proofs; elsewhere only where spaces take any card and asked', () => {
    expect(solve('canfield-relaxed', {}).stricterGame).toBeDefined();
    expect(solve('canfield-relaxed', {}, false).stricterGame).toBeUndefined();
    expect(solve('canfield-sequences', { spaces: 'any' }).stricterGame).toBeUndefined();
    expect(solve('canfield-sequences', { spaces: 'any' }, true).drawOne).toBeDefined(); // rule 13 takes the place
    expect(solve('canfield-sequences', { spaces: 'any', draw: 1 }, true).stricterGame).toBeDefined();
    // Spaces that take only some cards: the stricter rules would not be stricter.
    expect(solve('canfield', {}, true).stricterGame).toBeUndefined();
    expect(solve('canfield-relaxed', { build: 'any-suit' }, true).stricterGame).toBeUndefined(); // its runs keep no proofs
  });

  it('wins canfield-relaxed deal 978, which the real search alone does not win in 3 million nodes', () => {
    const start = dealFromSeed(resolveRules('canfield-relaxed'), 978);
    const alone = new Solver().solve(start, { nodeLimit: 3_000_000, stricterGame: false });
    expect(alone.verdict).toBe('unknown');
    const beside = new Solver().solve(start, { nodeLimit: 3_000_000 });
    expect(beside.verdict).toBe('winnable');
    expect(beside.stricterGame).toEqual({ nodes: expect.any(Number), outcome: 'winnable' });
    expect(replayProblem(start, beside.moves!)).toBeUndefined();
  });

  it('leaves a paused long run as it was: one solver over deals 1-60 wins them all, every win replayed', () => {
    // The long run of canfield-relaxed waits with its path on the stack while the short runs and
    // the stricter game search; the stricter game's stack is its own (sharing it once broke deal 48).
    const rules = resolveRules('canfield-relaxed');
    const solver = new Solver({ memoryMiB: 256 });
    let byStricter = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const start = dealFromSeed(rules, seed);
      const r = solver.solve(start, { nodeLimit: 300_000 });
      if (r.verdict === 'winnable') expect(replayProblem(start, r.moves!), `deal ${seed}`).toBeUndefined();
      if (r.stricterGame?.outcome === 'winnable') byStricter++;
    }
    expect(byStricter).toBeGreaterThan(3);
  });

  it('stops after its share of nodes and gives the real search all the memory', () => {
    const start = dealFromSeed(resolveRules('canfield-relaxed'), 513);
    const r = new Solver().solve(start, { nodeLimit: 2_000_000 });
    expect(r).toMatchObject({ verdict: 'unknown', reason: 'nodes', nodes: 2_000_000 });
    expect(r.stricterGame!.nodes).toBeLessThanOrEqual(1 << 18);
  });
});
