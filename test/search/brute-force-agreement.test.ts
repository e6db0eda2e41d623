import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dealFromSeed } from '../../src/rules/deal';
import { resolveRules, type RulesOptions, stockSize } from '../../src/rules/rules';
import { bruteForce } from '../../src/referee/brute-force';
import { Solver } from '../../src/search/solver';
import { replayProblem, solveCommand } from './support';

/**
 * The solver against brute force on small random deals of every preset: whenever the referee's plain
 * breadth-first search decides a deal, the solver's verdict must be the same, and every solution
 * the solver gives must replay to a win with the referee. This is the check that catches unsafe
 * pruning and bad canonical forms (issue 3).
 *
 * Brute force keys whole positions without any symmetry, so its state space grows fast with the
 * number of piles and with the stock; each preset's plan below mixes many small layouts with fewer
 * bigger ones, and gives each group a state limit that decides most of it. The share of decided
 * deals is asserted, so the test cannot pass by deciding nothing. Set AGREEMENT_STATS=1 to print
 * the counts and times of each group.
 */

const SEED = 20_261_122;
const STATS = process.env.AGREEMENT_STATS === '1';
const MIN_DECIDED = 0.8;

type Range = readonly [number, number];
type Redeals = number | 'unlimited';

interface LayoutSpec {
  ranks: Range;
  piles: Range;
  /** Stock games only. */
  reserve?: Range;
  /** `undefined` in a list: the preset's own value. */
  draw?: readonly (number | undefined)[];
  redeals?: readonly (Redeals | undefined)[];
}

interface Group {
  label: string;
  runs: number;
  /** Brute force gives up (unknown) after this many positions. */
  maxStates: number;
  spec: LayoutSpec;
}

const range = ([min, max]: Range) => fc.integer({ min, max });

/**
 * Rule overrides within `spec`, only combinations the rules accept: `draw` and `redeals` are left
 * out where the layout leaves no stock (resolveRules refuses them there).
 */
function layouts(game: string, spec: LayoutSpec): fc.Arbitrary<RulesOptions> {
  return fc
    .record({
      ranks: range(spec.ranks),
      piles: range(spec.piles),
      reserve: spec.reserve ? range(spec.reserve) : fc.constant(undefined),
      draw: fc.constantFrom(...(spec.draw ?? [undefined])),
      redeals: fc.constantFrom(...(spec.redeals ?? [undefined])),
    })
    .map(({ ranks, piles, reserve, draw, redeals }) => {
      const options: RulesOptions = { ranks, piles };
      if (reserve !== undefined) options.reserve = reserve;
      if (stockSize(resolveRules(game, options)) > 0) {
        if (draw !== undefined) options.draw = draw;
        if (redeals !== undefined) options.redeals = redeals;
      }
      return options;
    });
}

const DRAWS = [undefined, 1, 3] as const;
const REDEALS = [undefined, 0, 1, 'unlimited'] as const;

/** Each preset's groups of cases. Sizes and limits keep the whole file near a minute on 2 cores. */
const PLAN: Record<string, Group[]> = {
  canister: [
    { label: '3 piles', runs: 400, maxStates: 20_000, spec: { ranks: [3, 5], piles: [3, 3] } },
    { label: '4-5 piles (mostly the quickly stuck ones decide)', runs: 40, maxStates: 2_000, spec: { ranks: [3, 5], piles: [4, 5] } },
    { label: '4 piles of 2 ranks', runs: 40, maxStates: 10_000, spec: { ranks: [2, 2], piles: [4, 4] } },
  ],
  'american-canister': [
    { label: '3 piles', runs: 300, maxStates: 10_000, spec: { ranks: [3, 5], piles: [3, 3] } },
    { label: '4 piles', runs: 60, maxStates: 12_000, spec: { ranks: [3, 5], piles: [4, 4] } },
    { label: '5 piles', runs: 20, maxStates: 2_000, spec: { ranks: [3, 5], piles: [5, 5] } },
    { label: '5 piles of 2 ranks', runs: 15, maxStates: 20_000, spec: { ranks: [2, 2], piles: [5, 5] } },
  ],
  'british-canister': [
    { label: '3-5 piles', runs: 500, maxStates: 10_000, spec: { ranks: [3, 5], piles: [3, 5] } },
  ],
  storehouse: [
    { label: '3 ranks', runs: 200, maxStates: 8_000, spec: { ranks: [3, 3], reserve: [0, 4], piles: [2, 3], draw: DRAWS, redeals: REDEALS } },
    { label: '4-5 ranks, 2 piles', runs: 150, maxStates: 6_000, spec: { ranks: [4, 5], reserve: [0, 4], piles: [2, 2], draw: DRAWS, redeals: [0, 1] } },
    { label: '4 piles', runs: 30, maxStates: 8_000, spec: { ranks: [3, 3], reserve: [0, 4], piles: [4, 4], draw: DRAWS, redeals: REDEALS } },
  ],
  canfield: [
    { label: '3 ranks, 2 piles', runs: 250, maxStates: 6_000, spec: { ranks: [3, 3], reserve: [0, 4], piles: [2, 2], draw: DRAWS, redeals: REDEALS } },
    { label: '4-5 ranks, 2 piles', runs: 150, maxStates: 6_000, spec: { ranks: [4, 5], reserve: [2, 4], piles: [2, 2], draw: [undefined], redeals: [undefined, 0] } },
    { label: '3 piles', runs: 30, maxStates: 25_000, spec: { ranks: [3, 3], reserve: [2, 4], piles: [3, 3], redeals: REDEALS } },
  ],
  'canfield-relaxed': [
    { label: '3 ranks', runs: 30, maxStates: 40_000, spec: { ranks: [3, 3], reserve: [0, 4], piles: [2, 2], redeals: [0] } },
    { label: '2 ranks', runs: 80, maxStates: 15_000, spec: { ranks: [2, 2], reserve: [0, 4], piles: [2, 3], draw: DRAWS, redeals: REDEALS } },
  ],
  'canfield-sequences': [
    { label: '3 ranks, 2 piles', runs: 250, maxStates: 6_000, spec: { ranks: [3, 3], reserve: [0, 4], piles: [2, 2], draw: DRAWS, redeals: REDEALS } },
    { label: '4-5 ranks, 2 piles', runs: 150, maxStates: 6_000, spec: { ranks: [4, 5], reserve: [2, 4], piles: [2, 2], draw: [undefined], redeals: [undefined, 0] } },
    { label: '3 piles', runs: 40, maxStates: 20_000, spec: { ranks: [3, 4], reserve: [3, 4], piles: [3, 3], redeals: [0] } },
  ],
};

const solver = new Solver({ memoryMiB: 64 });

describe('the solver agrees with brute force on small deals', () => {
  it('covers every preset', () => {
    expect(Object.keys(PLAN).sort()).toEqual(
      ['american-canister', 'british-canister', 'canfield', 'canfield-relaxed', 'canfield-sequences', 'canister', 'storehouse'],
    );
  });

  describe.each(Object.keys(PLAN))('%s', (game) => {
    it('every verdict brute force reaches is the solver\'s, and every solution replays to a win', () => {
      const total = { cases: 0, decided: 0, winnable: 0, unwinnable: 0 };
      PLAN[game]!.forEach((group, index) => {
        const counts = { cases: 0, decided: 0, winnable: 0, unwinnable: 0 };
        const started = performance.now();
        fc.assert(
          fc.property(layouts(game, group.spec), fc.integer({ min: 0, max: 2 ** 31 - 1 }), (options, seed) => {
            const start = dealFromSeed(resolveRules(game, options), seed);
            const where = solveCommand(game, options, seed);
            const brute = bruteForce(start, { maxStates: group.maxStates });
            const result = solver.solve(start, { nodeLimit: 10_000_000 });
            if (result.verdict === 'winnable') expect(replayProblem(start, result.moves!), where).toBeUndefined();
            counts.cases++;
            if (brute.verdict === 'unknown') return;
            expect(result.verdict, `${where} (brute force: ${brute.verdict} after ${brute.states} positions)`).toBe(brute.verdict);
            counts.decided++;
            counts[brute.verdict]++;
          }),
          { seed: SEED + index, numRuns: group.runs },
        );
        if (STATS) {
          const ms = performance.now() - started;
          console.log(`${game} / ${group.label}: ${counts.decided}/${counts.cases} decided (${counts.winnable} winnable, ${counts.unwinnable} unwinnable), ${(ms / 1000).toFixed(1)} s`);
        }
        for (const key of ['cases', 'decided', 'winnable', 'unwinnable'] as const) total[key] += counts[key];
      });
      // Not vacuous: most cases decided, and both verdicts met.
      expect(total.cases).toBe(PLAN[game]!.reduce((n, g) => n + g.runs, 0));
      expect(total.decided / total.cases).toBeGreaterThanOrEqual(MIN_DECIDED);
      expect(total.winnable).toBeGreaterThan(0);
      expect(total.unwinnable).toBeGreaterThan(0);
    }, 300_000);
  });
});
