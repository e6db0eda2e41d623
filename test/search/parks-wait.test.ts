import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dealFromSeed } from '../../src/rules/deal';
import { resolveRules } from '../../src/rules/rules';
import { formatCard } from '../../src/cards/card';
import { parsePosition } from '../../src/rules/position';
import { Engine } from '../../src/search/engine';
import { Solver } from '../../src/search/solver';
import { checkBruteForce, expectBothVerdicts, replayProblem, solveCommand } from './support';

/**
 * Rule 16 (docs/algorithms.md): in rule 9's games (Storehouse) dealing one card at a time with no
 * limit on redeals, a talon card goes into a space only when a card that could be built on it there
 * is at hand (the reserve top, a pile's bottom card, or the end of a chain of talon cards). This is
 * the game rule 13 searches beside Storehouse, so a wrong prune here would turn a Storehouse win
 * into "unwinnable" twice over: in the game itself and through rule 13.
 *
 * What guards it: the differential test (test/search/successors.test.ts) checks that every space
 * move the engine leaves out is one the test's own reading of the rule leaves out; the hand-made
 * positions here check the reading itself (a card left out, a card kept through the reserve, a pile
 * and a chain); and brute force checks the solver's verdicts on small deals. Brute force cannot
 * catch a rule that leaves out too much, though: no small deal, and none of Storehouse deals 1-3,000,
 * was found that needs a talon card in a space at all (docs/algorithms.md, rule 16).
 */

const SEED = 16_016;

describe('storehouse with unlimited redeals (rule 16)', () => {
  it('agrees with brute force on small deals, and its solutions replay', () => {
    const solver = new Solver({ memoryMiB: 32 });
    const counts = { decided: 0, winnable: 0, unwinnable: 0 };
    const layouts = fc.constantFrom({ ranks: 4, reserve: 4, piles: 2 }, { ranks: 5, reserve: 6, piles: 2 }, { ranks: 4, reserve: 6, piles: 3 });
    fc.assert(
      fc.property(layouts, fc.integer({ min: 0, max: 2 ** 31 - 1 }), (layout, seed) => {
        const options = { ...layout, redeals: 'unlimited' as const };
        const start = dealFromSeed(resolveRules('storehouse', options), seed);
        const where = solveCommand('storehouse', options, seed);
        const result = solver.solve(start, { nodeLimit: 2_000_000 });
        if (result.verdict === 'winnable') expect(replayProblem(start, result.moves!), where).toBeUndefined();
        checkBruteForce(start, result.verdict, where, counts, 30_000);
      }),
      { seed: SEED, numRuns: 60 },
    );
    expectBothVerdicts(counts, 50);
  }, 300_000);

  it('leaves talon cards out of a space unless a card can be built on them there', () => {
    // 4 ranks (2 3 4 A, aces high). Pile 2 is empty; the talon deals AD, AH, AC, then 3C, which may
    // go home and so ends dealing (rule 3; it keeps all its moves). AD may go into the space: the
    // reserve top, 4D, goes on it. So may AC: pile 1, 4C alone, moves onto it. AH may not: 4H, the
    // one card that goes on it, lies in the reserve under 4D.
    const position = {
      game: 'storehouse',
      rules: { ranks: 4, reserve: 2, piles: 2, redeals: 'unlimited' },
      foundations: [['2C'], ['2D'], ['2H'], ['2S', '3S', '4S', 'AS']],
      baseRank: '2',
      reserve: ['4H', '4D'],
      tableau: [['4C'], []],
      stock: ['3H', '3D', '3C', 'AC', 'AH', 'AD'],
    };
    expect(intoSpace(position, 1, 'unlimited')).toEqual(['reserve 4D', 'waste 3C', 'waste AC', 'waste AD']);
    // With a redeal limit the rule does not apply: every talon card up to 3C may go there.
    expect(intoSpace(position, 1, 2)).toEqual(['reserve 4D', 'waste 3C', 'waste AC', 'waste AD', 'waste AH']);
  });

  it('follows a chain of talon cards to the card at hand', () => {
    // 5 ranks (2 3 4 5 A). Both piles are empty; the talon deals AH, then 5H. 5H may go into a
    // space: the reserve top, 4H, goes on it. So may AH: 5H, in the talon, goes on it, and 4H on 5H.
    const position = {
      game: 'storehouse',
      rules: { ranks: 5, reserve: 2, piles: 2, redeals: 'unlimited' },
      foundations: [['2C', '3C', '4C', '5C', 'AC'], ['2D', '3D', '4D', '5D', 'AD'], ['2H'], ['2S', '3S', '4S', '5S', 'AS']],
      baseRank: '2',
      reserve: ['3H', '4H'],
      tableau: [[], []],
      stock: ['5H', 'AH'],
    };
    expect(intoSpace(position, 0, 'unlimited')).toEqual(['reserve 4H', 'waste 5H', 'waste AH']);
  });
});

/** The moves the engine offers from `position` (with `redeals`) into pile `space`, as "from card", sorted. */
function intoSpace(position: Record<string, unknown> & { rules: Record<string, unknown> }, space: number, redeals: number | 'unlimited'): string[] {
  const engine = new Engine(parsePosition({ ...position, rules: { ...position.rules, redeals } }));
  const buffer = new Int32Array(256);
  const n = engine.generate(buffer, 0);
  const cards: string[] = [];
  for (const m of buffer.subarray(0, n)) {
    const move = engine.describe(m).at(-1)!;
    if (move.kind === 'move' && move.to.area === 'tableau' && move.to.index === space) cards.push(`${move.from.area} ${formatCard(move.card)}`);
  }
  return cards.sort();
}
