import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dealFromSeed } from '../../src/rules/deal';
import { resolveRules, type RulesOptions } from '../../src/rules/rules';
import { Engine } from '../../src/search/engine';
import { inverseMove } from '../../src/search/move-code';
import { mulberry, positionText, solveCommand } from './support';

/**
 * The solver skips, from a state, the move that `inverseMove` names for the move that led there,
 * on the grounds that it leads straight back to the state before (which is in the table). Along
 * random engine playouts, whenever that move is among the child's generated moves, making it must
 * give back exactly the parent position; and the check must not be vacuous.
 */

const GAMES: readonly [string, RulesOptions][] = [
  ['canister', {}],
  ['american-canister', {}],
  ['canfield-relaxed', {}],
  ['canfield-sequences', {}],
  ['canfield', {}],
  ['storehouse', {}],
  ['canfield-relaxed', { ranks: 3, reserve: 1, piles: 3 }],
];

describe.each(GAMES)('the inverse move of %s %j', (game, options) => {
  it('leads back to the parent whenever the child generates it', () => {
    const rules = resolveRules(game, options);
    let met = 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer(), (seed, choices) => {
        const rng = mulberry(choices);
        const engine = new Engine(dealFromSeed(rules, seed));
        const moves = new Int32Array(4096);
        const childMoves = new Int32Array(4096);
        for (let step = 0; step < 60; step++) {
          const count = engine.generate(moves, 0);
          if (count === 0) break;
          const parent = engine.toPosition();
          const m = moves[Math.floor(rng() * count)]!;
          const info = engine.make(m);
          const back = inverseMove(m, info);
          if (back !== -1 && Array.from(childMoves.subarray(0, engine.generate(childMoves, 0))).includes(back)) {
            const backInfo = engine.make(back);
            expect(engine.toPosition(), `${solveCommand(game, options, seed)}: ${positionText(parent)}`).toEqual(parent);
            engine.undo(back, backInfo);
            met++;
          }
        }
      }),
      { seed: 99, numRuns: 40 },
    );
    if (game === 'canister' || game === 'canfield-relaxed') expect(met).toBeGreaterThan(0);
  });
});
