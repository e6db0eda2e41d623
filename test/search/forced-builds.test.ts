import { describe, expect, it } from 'vitest';
import { dealFromSeed } from '../../src/rules/deal';
import type { Position } from '../../src/rules/position';
import { resolveRules, type RulesOptions } from '../../src/rules/rules';
import { Engine } from '../../src/search/engine';
import { Solver } from '../../src/search/solver';
import { FORCED_BIT, moveType, MT_R2F, MT_T2F, MT_W2F } from '../../src/search/move-code';
import { bruteVerdict, forcedMoves, mulberry, playout, positionText, solveCommand } from './support';

/**
 * Rule 9 of docs/algorithms.md ("one place to build"): in Storehouse-like games (builds in suit,
 * whole piles moving, no automatic fill) a whole pile, the reserve top or the waste top (drawing
 * one) that fits on a pile is built there at once, and dealing stops at a card that fits on a pile.
 * The direct statement of safety, checked by brute force with the referee on small decks: whenever
 * the engine forces such a build, the position after it is won exactly when the position before it
 * is. (test/search/successors.test.ts checks the move is of the kind the rule allows, and
 * test/search/brute-force-agreement.test.ts the solver's verdicts.)
 */

const GAMES: readonly [string, RulesOptions][] = [
  ['storehouse', { ranks: 4, reserve: 6, piles: 2, redeals: 1 }],
  ['storehouse', { ranks: 5, reserve: 6, piles: 2, redeals: 0 }],
  ['storehouse', { ranks: 4, reserve: 5, piles: 2, draw: 3, redeals: 1 }],
  ['storehouse', { ranks: 4, reserve: 4, piles: 3, redeals: 0 }],
];

/** Forced builds checked, and of them from winnable positions, over all the games above. */
const totals = { checked: 0, won: 0 };

const MAX_STATES = 40_000;

/** Brute force's verdict, or undefined when the space is too large to decide here. */
const verdict = (p: Position, maxStates = MAX_STATES): boolean | undefined => bruteVerdict(p, maxStates);

describe.each(GAMES)('a forced build keeps the verdict: %s %j', (game, options) => {
  const rules = resolveRules(game, options);
  it('from positions of random playouts, by brute force', () => {
    let checked = 0;
    for (const { seed, p, m, steps, next } of forcedMoves(rules, 60, (seed) => seed * 7 + 1)) {
      const type = moveType(m);
      if (type === MT_T2F || type === MT_R2F || type === MT_W2F) continue;
      const before = verdict(p);
      if (before === undefined) continue;
      const after = verdict(next);
      expect(after, `${solveCommand(game, options, seed)}\n  position ${positionText(p)}\n  forced ${steps.length} step(s)`).toBe(before);
      checked++;
      totals.checked++;
      if (before) totals.won++;
    }
    expect(checked, 'forced builds met and decided').toBeGreaterThan(10);
  });
});

describe('no build is forced with wrap', () => {
  // Round the corner the top rank fits on the base card, which must go home first: that build
  // can only lose, so rule 9 is off. Both ways of a deal must still agree with brute force.
  it('generates every build, and the solver agrees with brute force', () => {
    const options: RulesOptions = { ranks: 3, reserve: 3, piles: 2, wrap: true, basesOut: false, redeals: 1 };
    const rules = resolveRules('storehouse', options);
    const buffer = new Int32Array(4096);
    const solver = new Solver({ memoryMiB: 32 });
    let decided = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const start = dealFromSeed(rules, seed);
      for (const p of playout(start, 20, mulberry(seed))) {
        const count = new Engine(p).generate(buffer, 0);
        const forcedBuild = count === 1 && (buffer[0]! & FORCED_BIT) !== 0 && ![MT_T2F, MT_R2F, MT_W2F].includes(moveType(buffer[0]!));
        expect(forcedBuild, `${solveCommand('storehouse', options, seed)}\n  position ${positionText(p)}`).toBe(false);
      }
      const brute = verdict(start, 10_000);
      if (brute === undefined) continue;
      expect(solver.solve(start).verdict, solveCommand('storehouse', options, seed)).toBe(brute ? 'winnable' : 'unwinnable');
      decided++;
    }
    expect(decided).toBeGreaterThan(10);
  });
});

describe('the forced-build check is not vacuous', () => {
  // Runs after the checks above (vitest runs a file's tests in order).
  it('met forced builds from winnable and from lost positions', () => {
    expect(totals.won).toBeGreaterThan(10);
    expect(totals.checked - totals.won).toBeGreaterThan(5);
  });
});
