import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { dealFromDeck, formatPosition, PRESET_NAMES, resolveRules, shuffledDeck } from '../../src/index';
import { Engine } from '../../src/search/engine';
import type { Position } from '../../src/rules/position';
import { make, mulberry } from '../helpers';

/**
 * The position with its tableau piles sorted by bottom card, the order `decode` gives them in, and,
 * with unlimited redeals, the stock and waste as one talon when the split is on a dealing boundary
 * (the key records such a split as 0: see Talon.keySplit).
 */
function canonical(p: Position): string {
  let { stock, waste } = p;
  if (p.rules.redeals === 'unlimited' && (waste.length % p.rules.draw === 0 || stock.length === 0)) {
    stock = [...stock, ...waste.slice().reverse()];
    waste = [];
  }
  const json = formatPosition({ ...p, stock, waste, tableau: p.tableau.slice().sort((a, b) => (a[0] ?? 99) - (b[0] ?? 99)) });
  return JSON.stringify(json);
}

describe('packed key', () => {
  test.each(PRESET_NAMES)('decode(encode(state)) and load(encode(state)) are the state, along random playouts of %s', (game) => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e9 }), fc.array(fc.nat(), { minLength: 1, maxLength: 80 }), (seed, picks) => {
        const rules = resolveRules(game);
        const engine = new Engine(dealFromDeck(rules, shuffledDeck(seed)));
        const loader = new Engine(dealFromDeck(rules, shuffledDeck(seed)));
        const moves = new Int32Array(4096);
        const key = new Uint32Array(64);
        for (const pick of picks) {
          const words = engine.encode(key);
          const decoded = engine.decode(key, words, engine.passRank());
          expect(canonical(decoded)).toBe(canonical(engine.toPosition()));
          // `load` is the same inverse, into an engine of the same deal (redeals used are not state
          // with unlimited redeals, and stay as that engine had them).
          loader.load(key, words, engine.passRank());
          const unlimited = rules.redeals === 'unlimited';
          const loaded = loader.toPosition();
          const own = engine.toPosition();
          expect(canonical(unlimited ? { ...loaded, redealsUsed: 0 } : loaded)).toBe(canonical(unlimited ? { ...own, redealsUsed: 0 } : own));
          const n = engine.generate(moves, 0);
          if (n === 0) break;
          engine.make(moves[pick % n]!);
        }
      }),
      { seed: 7, numRuns: 15 },
    );
  });

  test('piles that are always built runs are keyed by bottom card and one choice a card (run keys)', () => {
    for (const game of PRESET_NAMES) {
      const engine = new Engine(dealFromDeck(resolveRules(game), shuffledDeck(3)));
      // Piles dealt one card each only grow by building: the Canfield games and Storehouse.
      expect([game, engine.runKeys]).toEqual([game, !game.includes('canister')]);
    }
    // canfield-sequences along random playouts: the key holds 2 bytes a pile, not a byte a card.
    const rules = resolveRules('canfield-sequences');
    const moves = new Int32Array(4096);
    const key = new Uint32Array(64);
    let most = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const engine = new Engine(dealFromDeck(rules, shuffledDeck(seed)));
      let x = seed;
      for (let i = 0; i < 300; i++) {
        const piles = engine.toPosition().tableau.filter((p) => p.length > 0);
        const above = piles.reduce((sum, p) => sum + p.length - 1, 0);
        most = Math.max(most, above);
        // Foundations 2 bytes, reserve count, split class; a length byte a pile and a bottom card
        // a pile that has one; one bit a card above a bottom.
        const bytes = 4 + 4 + piles.length + Math.ceil(above / 8);
        expect(engine.encode(key)).toBe(Math.ceil(bytes / 4));
        const n = engine.generate(moves, 0);
        if (n === 0) break;
        x = (x * 1103515245 + 12345) % 2 ** 31;
        engine.make(moves[x % n]!);
      }
    }
    expect(most).toBeGreaterThan(8);
  });

  test('piles longer than the choices the moves keep (round the corner) are keyed card by card, exactly', () => {
    // A 30-card run down in alternating colours round the corner (K of one colour on an A of the
    // other), and a 14-card one: past the 24 choices a pile's kept bits hold (Engine.pileBits).
    const ranks = 'KQJT98765432A';
    const used = new Set<string>();
    const run = (from: number, n: number, firstBlack: boolean): string => {
      const out: string[] = [];
      for (let i = 0; i < n; i++) {
        const r = ranks[(from + i) % 13]!;
        // Colours alternate; each card the first of its rank and colour not used yet.
        const suits = (i % 2 === 0) === firstBlack ? 'CS' : 'DH';
        const suit = [...suits].find((x) => !used.has(r + x))!;
        used.add(r + suit);
        out.push(r + suit);
      }
      return out.join(' ');
    };
    const piles = [run(0, 30, true), run(4, 14, true), '', ''];
    for (const game of ['canfield', 'canfield-relaxed']) {
      const start = make(game, { base: '8', tableau: piles, stock: 'rest' });
      const engine = new Engine(start);
      // The same deal loaded from the key works the choices out from scratch.
      const loader = new Engine(start);
      const again = new Uint32Array(64);
      const moves = new Int32Array(4096);
      const key = new Uint32Array(64);
      const rng = mulberry(11);
      const history: { m: number; info: number; key: string }[] = [];
      let longest = 0;
      for (let step = 0; step < 400; step++) {
        const words = engine.encode(key);
        const now = Array.from(key.subarray(0, words)).join(',');
        const position = engine.toPosition();
        longest = Math.max(longest, ...position.tableau.map((p) => p.length));
        // The key gives the position, and the choices the moves kept are those worked out afresh.
        expect(canonical(engine.decode(key, words, engine.passRank()))).toBe(canonical(position));
        loader.load(key, words, engine.passRank());
        expect(Array.from(again.subarray(0, loader.encode(again))).join(',')).toBe(now);
        const n = engine.generate(moves, 0);
        if (n === 0 || (history.length > 0 && rng() < 0.3)) {
          const last = history.pop();
          if (last === undefined) break;
          engine.undo(last.m, last.info);
          const back = new Uint32Array(64);
          expect(Array.from(back.subarray(0, engine.encode(back))).join(',')).toBe(last.key);
          continue;
        }
        const m = moves[Math.floor(rng() * n)]!;
        history.push({ m, info: engine.make(m), key: now });
      }
      expect(longest).toBeGreaterThanOrEqual(30);
    }
  });

  test('the key ignores the order of tableau piles', () => {
    const rules = resolveRules('canister');
    const p = dealFromDeck(rules, shuffledDeck(5));
    const q = { ...p, tableau: p.tableau.slice().reverse() };
    const a = new Uint32Array(64);
    const b = new Uint32Array(64);
    const la = new Engine(p).encode(a);
    const lb = new Engine(q).encode(b);
    expect(Array.from(b.subarray(0, lb))).toEqual(Array.from(a.subarray(0, la)));
  });
});
