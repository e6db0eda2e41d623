import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Talon } from '../../src/search/talon';

/**
 * The talon on its own (src/search/talon.ts): the cards `list` offers are exactly those that
 * dealing and redealing, played out one deal at a time on plain arrays, can bring to the waste top,
 * each with the fewest redeals it needs (0 or 1: every later pass repeats the first from the start);
 * a cut ends the list at the first card it names; `take` and `putBack` leave the talon as it was.
 */

interface Shape {
  waste: number[];
  stock: number[];
  draw: number;
  redealLimit: number;
  redealsUsed: number;
  taken: number[];
}

/** Waste and stock as plain arrays (waste bottom to top, stock next card first) of the talon's live entries. */
function piles(t: Talon): { waste: number[]; stock: number[] } {
  const waste: number[] = [];
  const stock: number[] = [];
  for (let i = 0; i < t.length; i++) if (t.removed[i] === 0) (i < t.split ? waste : stock).push(t.cards[i]!);
  return { waste, stock };
}

/**
 * Every card that dealing and redealing can bring to the waste top, with the fewest redeals that
 * does it: a breadth-first walk over (waste, stock, redeals) played out as the rules say.
 */
function reachable(t: Talon): Map<number, number> {
  const start = piles(t);
  const best = new Map<number, number>();
  const seen = new Set<string>();
  let frontier = [{ ...start, redeals: 0 }];
  while (frontier.length > 0) {
    const next: typeof frontier = [];
    for (const s of frontier) {
      const id = `${s.waste.join(',')}|${s.stock.join(',')}|${s.redeals}`;
      if (seen.has(id)) continue;
      seen.add(id);
      const top = s.waste[s.waste.length - 1];
      if (top !== undefined && (best.get(top) ?? Infinity) > s.redeals) best.set(top, s.redeals);
      if (s.stock.length > 0) {
        const dealt = s.stock.slice(0, t.draw);
        next.push({ waste: [...s.waste, ...dealt], stock: s.stock.slice(dealt.length), redeals: s.redeals });
      } else if (s.waste.length > 0 && (t.redealLimit < 0 || t.redealsUsed + s.redeals < t.redealLimit) && s.redeals < 3) {
        next.push({ waste: [], stock: s.waste.slice(), redeals: s.redeals + 1 });
      }
    }
    frontier = next;
  }
  return best;
}

const shapes: fc.Arbitrary<Shape> = fc
  .record({
    size: fc.integer({ min: 0, max: 40 }),
    wasteShare: fc.double({ min: 0, max: 1, noNaN: true }),
    draw: fc.integer({ min: 1, max: 5 }),
    redealLimit: fc.integer({ min: -1, max: 2 }),
    redealsUsed: fc.integer({ min: 0, max: 2 }),
    taken: fc.array(fc.nat(), { maxLength: 12 }),
  })
  .map(({ size, wasteShare, draw, redealLimit, redealsUsed, taken }) => {
    const cards = Array.from({ length: size }, (_, i) => i);
    const w = Math.floor(size * wasteShare);
    return {
      waste: cards.slice(0, w),
      stock: cards.slice(w).reverse(),
      draw,
      redealLimit,
      redealsUsed: redealLimit < 0 ? redealsUsed : Math.min(redealsUsed, redealLimit),
      taken,
    };
  });

/** A talon of the shape, with some cards played off the waste top as a search would (each one reachable). */
function build(shape: Shape): Talon {
  const t = new Talon(shape.waste, shape.stock, shape.draw, shape.redealLimit, shape.redealsUsed);
  for (const pick of shape.taken) {
    t.list(null);
    if (t.candCount === 0) break;
    const i = pick % t.candCount;
    t.take(t.candIdx[i]!, t.candRedeal[i] === 1);
  }
  return t;
}

function listed(t: Talon): Map<number, number> {
  const out = new Map<number, number>();
  for (let i = 0; i < t.candCount; i++) {
    const card = t.cards[t.candIdx[i]!]!;
    expect(out.has(card), `card ${card} listed twice`).toBe(false);
    out.set(card, t.candRedeal[i]!);
  }
  return out;
}

describe('Talon', () => {
  it('lists exactly the cards dealing can bring to the waste top, each with its fewest redeals', () => {
    fc.assert(
      fc.property(shapes, (shape) => {
        const t = build(shape);
        t.list(null);
        const want = reachable(t);
        expect(listed(t)).toEqual(want);
        for (const redeals of want.values()) expect(redeals).toBeLessThanOrEqual(1);
      }),
      { seed: 11, numRuns: 400 },
    );
  });

  it('ends the list at the first card a cut names, keeping the order before it', () => {
    fc.assert(
      fc.property(shapes, fc.nat(), (shape, pick) => {
        const t = build(shape);
        t.list(null);
        const all = Array.from(t.candIdx.subarray(0, t.candCount));
        if (all.length === 0) return;
        const stopAt = t.cards[all[pick % all.length]!]!;
        t.list({ cutsDealing: (card) => card === stopAt });
        expect(Array.from(t.candIdx.subarray(0, t.candCount))).toEqual(all.slice(0, (pick % all.length) + 1));
      }),
      { seed: 12, numRuns: 200 },
    );
  });

  it('puts a played card back exactly (split, redeals, the cards dealing reaches)', () => {
    fc.assert(
      fc.property(shapes, fc.nat(), (shape, pick) => {
        const t = build(shape);
        t.list(null);
        if (t.candCount === 0) return;
        const before = { split: t.split, redeals: t.redealsUsed, rank: t.passRank(), list: [...listed(t)] };
        const i = pick % t.candCount;
        const idx = t.candIdx[i]!;
        const redeal = t.candRedeal[i] === 1;
        const split = t.split;
        const card = t.take(idx, redeal);
        expect(card).toBe(t.cards[idx]);
        // The waste now ends where the card was: its top is the live entry just below it.
        let below = idx - 1;
        while (below >= 0 && t.removed[below] === 1) below--;
        expect(t.wasteTopIndex(t.split)).toBe(below);
        expect(piles(t).waste.includes(card) || piles(t).stock.includes(card)).toBe(false);
        t.putBack(idx, redeal, split);
        t.list(null);
        expect({ split: t.split, redeals: t.redealsUsed, rank: t.passRank(), list: [...listed(t)] }).toEqual(before);
      }),
      { seed: 13, numRuns: 200 },
    );
  });
});
