import { describe, expect, it } from 'vitest';
import { parseCard } from '../../src/cards/card';
import { dealFromSeed } from '../../src/rules/deal';
import type { Move, Place } from '../../src/rules/move';
import { resolveRules } from '../../src/rules/rules';
import { replay } from '../../src/referee/referee';
import { homeDirect } from '../../src/search/solution';
import { Solver } from '../../src/search/solver';

/**
 * The printed solution sends a card home in one move where the search took it there by way of a
 * pile (rule 11 does that with every waste card that could also be built): `homeDirect`.
 */

const t = (index: number): Place => ({ area: 'tableau', index });
const home: Place = { area: 'foundation' };
function mv(card: string, from: Place, to: Place, extra: Partial<Extract<Move, { kind: 'move' }>> = {}): Move {
  return { kind: 'move', card: parseCard(card), count: 1, from, to, ...extra };
}

/** Whether a card goes onto a pile and from there straight home, two moves in a row. */
function detours(moves: readonly Move[]): number {
  let n = 0;
  for (let i = 0; i + 1 < moves.length; i++) {
    const a = moves[i]!;
    const b = moves[i + 1]!;
    if (a.kind !== 'move' || b.kind !== 'move' || a.to.area !== 'tableau' || a.from.area === 'foundation') continue;
    if (a.count === 1 && !a.autoFill && !b.autoFill && b.card === a.card && b.from.area === 'tableau' && b.from.index === a.to.index && b.to.area === 'foundation') n++;
  }
  return n;
}

describe('homeDirect', () => {
  it('joins a card built on a pile and sent home from it into one move from where it came', () => {
    const moves: Move[] = [
      { kind: 'deal' },
      mv('QH', { area: 'waste' }, t(0)),
      mv('QH', t(0), home),
      mv('5C', { area: 'reserve' }, t(2)),
      mv('5C', t(2), home),
      mv('9S', t(1), t(3)),
      mv('9S', t(3), home),
    ];
    expect(homeDirect(moves)).toEqual([
      { kind: 'deal' },
      mv('QH', { area: 'waste' }, home),
      mv('5C', { area: 'reserve' }, home),
      mv('9S', t(1), home),
    ]);
  });

  it('joins a card that passed through several piles on its way home', () => {
    expect(homeDirect([mv('9S', { area: 'waste' }, t(1)), mv('9S', t(1), t(3)), mv('9S', t(3), home), { kind: 'deal' }])).toEqual([
      mv('9S', { area: 'waste' }, home),
      { kind: 'deal' },
    ]);
  });

  it('leaves moves alone that are not one card going home through a pile', () => {
    const moves: Move[] = [
      mv('QH', { area: 'waste' }, t(0)),
      { kind: 'deal' },
      mv('QH', t(0), home), // not in a row
      mv('7D', { area: 'waste' }, t(1)),
      mv('7C', t(1), home), // another card
      mv('8S', t(2), t(3), { count: 3 }),
      mv('8S', t(3), home), // a run, not one card
      mv('4H', home, t(0)),
      mv('4H', t(0), home), // from a foundation: the two undo each other
      mv('2D', t(1), t(2), { autoFill: { card: parseCard('KS'), pile: 1 } }),
      mv('2D', t(2), home), // the first emptied a pile, which the reserve filled
      mv('JC', { area: 'waste' }, t(3)),
      mv('JC', t(3), home, { autoFill: { card: parseCard('AS'), pile: 3 } }), // the second did
    ];
    expect(homeDirect(moves)).toEqual(moves);
  });

  it('leaves no such detour in the solutions the solver prints, and they still win', () => {
    for (const game of ['canfield', 'canfield-sequences', 'canfield-relaxed', 'canister'] as const) {
      const rules = resolveRules(game, {});
      const solver = new Solver();
      for (let seed = 1; seed <= 12; seed++) {
        const position = dealFromSeed(rules, seed);
        const result = solver.solve(position, { nodeLimit: 200_000 });
        if (result.verdict !== 'winnable') continue;
        expect(detours(result.moves!), `${game} deal ${seed}`).toBe(0);
        expect(replay(position, result.moves!).won, `${game} deal ${seed}`).toBe(true);
      }
    }
  });
});
