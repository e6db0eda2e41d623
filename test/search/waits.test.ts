import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/search/engine';
import { moveDst, moveSrc, moveType, MT_R2T, MT_T2T } from '../../src/search/move-code';
import { parseCard } from '../../src/cards/card';
import { make } from '../helpers';
import { homeAfter } from './support';

/**
 * Rule 10 of docs/algorithms.md on hand-made Hoyle Canfield positions (base 5, whole piles): a move
 * that would make a card wait for itself through another pile is not generated, while the same card
 * onto the other black 5, or its twin onto the same 5, is. With base 5, a 5 is the lowest card of its
 * suit and a 4 the highest, so 4S goes home after 5S and 4H after 5H.
 */
describe('rule 10 through other piles (Hoyle Canfield, base 5)', () => {
  const moves = (engine: Engine): number[] => {
    const buffer = new Int32Array(1024);
    return Array.from(buffer.subarray(0, engine.generate(buffer, 0)));
  };
  const card = (text: string) => parseCard(text);

  it('a whole pile is not put where its card would wait for itself', () => {
    // Piles: 5H 4S | 5S | 4H | 5C. 4H onto 5S: 5S waits for 4H above it, 4S for 5S below it in
    // spades, 5H for 4S above it, 4H for 5H below it in hearts. 4H onto 5C closes no such circle.
    const p = make('canfield', { base: '5', tableau: ['5H 4S', '5S', '4H', '5C'], reserve: '2D', stock: 'rest' });
    const after = homeAfter(p);
    expect(after(card('5S')).has(card('4H'))).toBe(true); // the pile top 5S already goes home before 4H
    expect(after(card('5C')).has(card('4H'))).toBe(false);
    const t2t = moves(new Engine(p)).filter((m) => moveType(m) === MT_T2T && moveSrc(m) === 2);
    expect(t2t.map(moveDst).sort()).toEqual([3]);
  });

  it('nor a reserve card, while its twin may go there', () => {
    for (const [top, allowed] of [
      ['4H', [3]],
      ['4D', [1, 3]],
    ] as const) {
      const p = make('canfield', { base: '5', tableau: ['5H 4S', '5S', 'KD', '5C'], reserve: top, stock: 'rest' });
      const r2t = moves(new Engine(p)).filter((m) => moveType(m) === MT_R2T);
      expect(r2t.map(moveDst).sort(), top).toEqual([...allowed]);
    }
  });
});
