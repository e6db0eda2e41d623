import { describe, expect, it } from 'vitest';
import { parsePosition, type Position } from '../../src/rules/position';
import { resolveRules, type RulesOptions } from '../../src/rules/rules';
import { Engine } from '../../src/search/engine';
import { Solver } from '../../src/search/solver';
import { FORCED_BIT, moveType, MT_R2F, MT_T2F, MT_W2F } from '../../src/search/move-code';
import { bruteVerdict, forcedMoves, positionText, solveCommand } from './support';

/**
 * Rule 2's third case (docs/algorithms.md): where only whole piles move (Hoyle Canfield), a card
 * that may go home is forced there when every card that could be built on it is home, lies on
 * another card in a pile, or would wait for itself there. The direct statement of safety, checked
 * by brute force with the referee on small decks: whenever the engine forces a foundation move that
 * the first two cases do not prove safe, the position after it is won exactly when the position
 * before it is. (test/search/successors.test.ts checks, with its own reading of the relation, that
 * the forced card's builders are of those kinds; brute-force agreement checks the verdicts.)
 */

const GAMES: readonly [string, RulesOptions][] = [
  ['canfield', { ranks: 4, reserve: 2, piles: 3, redeals: 'unlimited' }],
  ['canfield', { ranks: 4, reserve: 3, piles: 3, draw: 1, redeals: 1 }],
  ['canfield', { ranks: 5, reserve: 3, piles: 3, redeals: 'unlimited' }],
  ['canfield', { ranks: 3, reserve: 2, piles: 2, draw: 2, redeals: 'unlimited' }],
];

/** Third-case forced moves checked, and of them from winnable positions, over all the games above. */
const totals = { checked: 0, won: 0 };

const MAX_STATES = 40_000;

/** Brute force's verdict, or undefined when the space is too large to decide here. */
const verdict = (p: Position): boolean | undefined => bruteVerdict(p, MAX_STATES);

describe.each(GAMES)('a move home forced by stuck builders keeps the verdict: %s %j', (game, options) => {
  const rules = resolveRules(game, options);
  it('from positions of random playouts, by brute force', () => {
    let checked = 0;
    for (const { seed, p, engine, m, steps, next } of forcedMoves(rules, 80, (seed) => seed * 13 + 5)) {
      const type = moveType(m);
      if (type !== MT_T2F && type !== MT_R2F && type !== MT_W2F) continue;
      const last = steps.at(-1)!;
      if (last.kind !== 'move' || engine.isSafeToFoundation(last.card)) continue; // first or second case
      const before = verdict(p);
      if (before === undefined) continue;
      const after = verdict(next);
      expect(after, `${solveCommand(game, options, seed)}\n  position ${positionText(p)}\n  forced ${last.card} home`).toBe(before);
      checked++;
      totals.checked++;
      if (before) totals.won++;
    }
    expect(checked, 'third-case forced moves met and decided').toBeGreaterThan(5);
  });
});

describe('a builder with cards on it is not stuck', () => {
  // 2H may go home. Its builders are AS (home) and AC, which is next on its foundation and whose
  // own builders are stuck (3D lies on another card; AC must go home before 3H, through 2C lying
  // on 3H), so AC would be a dead builder but for 3D lying on it: AC cannot go home in its place
  // when the line puts it on 2H. That whole pile onto 2H is the only way to empty a pile and bring
  // out the reserve (3C, then 2S, 2D and AD under it), so forcing 2H home loses a won deal.
  const position = {
    game: 'canfield',
    rules: { ranks: 3, reserve: 4, piles: 3, draw: 1, redeals: 0 },
    foundations: [[], [], ['AH'], ['AS']],
    baseRank: 'A',
    reserve: ['AD', '2D', '2S', '3C'],
    tableau: [['3S', '2H'], ['AC', '3D'], ['3H', '2C']],
  };
  it('is not forced home, and the deal is won', () => {
    const p = parsePosition(position);
    expect(verdict(p)).toBe(true);
    const buffer = new Int32Array(256);
    const count = new Engine(p).generate(buffer, 0);
    expect(count === 1 && (buffer[0]! & FORCED_BIT) !== 0, 'a forced move').toBe(false);
    const result = new Solver({ memoryMiB: 16 }).solve(p);
    expect(result.verdict).toBe('winnable');
  });
});

describe('the stuck-builders check is not vacuous', () => {
  // Runs after the checks above (vitest runs a file's tests in order).
  it('met third-case forced moves from winnable and from lost positions', () => {
    expect(totals.won).toBeGreaterThan(10);
    expect(totals.checked - totals.won).toBeGreaterThan(10);
  });
});
