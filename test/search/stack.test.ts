import { describe, expect, it } from 'vitest';
import { grow, MOVES_KEPT, MOVES_START, newStack, PLY_FIELDS, shrink, stackBytesOf } from '../../src/search/stack';

// The search stack's arrays grow by doubling and are given back after a deep search, or when they
// hold more than a small budget's share (docs/algorithms.md, "The transposition table").
describe('the search stack', () => {
  const grown = (moves: number, plies: number) => {
    const s = newStack();
    while (s.moves.length < moves) s.moves = grow(s.moves);
    while (s.start.length < plies) for (const f of PLY_FIELDS) s[f] = grow(s[f]);
    return s;
  };
  const fresh = stackBytesOf(newStack());

  it('keeps what a search grew, up to MOVES_KEPT moves and 65,536 plies, when no share is given', () => {
    const s = grown(MOVES_KEPT, 1 << 16);
    const bytes = stackBytesOf(s);
    shrink(s);
    expect(stackBytesOf(s)).toBe(bytes);
    const deep = grown(2 * MOVES_KEPT, 1 << 17);
    shrink(deep);
    expect(stackBytesOf(deep)).toBe(fresh);
  });

  it('gives back a stack that holds more than its share of the budget, and keeps a fresh one', () => {
    const s = grown(1 << 19, 1 << 12);
    expect(stackBytesOf(s)).toBeGreaterThan(2 << 20);
    shrink(s, 1 << 20);
    expect(stackBytesOf(s)).toBe(fresh);
    expect(s.moves.length).toBe(MOVES_START);
    // Already as small as a stack starts: kept (the same arrays), whatever the share.
    const moves = s.moves;
    shrink(s, 1);
    expect(s.moves).toBe(moves);
    // Within its share: kept.
    const t = grown(1 << 16, 1 << 11);
    const bytes = stackBytesOf(t);
    shrink(t, bytes);
    expect(stackBytesOf(t)).toBe(bytes);
  });
});
