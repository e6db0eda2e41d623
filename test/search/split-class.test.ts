import { describe, expect, it } from 'vitest';
import { dealFromSeed } from '../../src/rules/deal';
import { formatPosition, type Position } from '../../src/rules/position';
import { resolveRules, type RulesOptions } from '../../src/rules/rules';
import { Engine } from '../../src/search/engine';
import { KEY_SPLIT_BYTE } from '../../src/search/key';
import { REDEAL_BIT } from '../../src/search/move-code';
import { mulberry } from './support';

/**
 * Split dominance (docs/algorithms.md, "split classes"): with a draw of more than one card and
 * unlimited redeals, the key holds only the class of the talon split (live waste cards `w` mod
 * `draw`; a split on a dealing boundary counts as class `draw - 1`) and `passRank` gives `w`, or
 * `talon.length + 1` on a boundary. The table keeps the classes of a state in the lanes of one entry
 * (docs/algorithms.md, "One entry for every split class"): the key holds the class divided by 4 and
 * `laneOf` the rest. Here: states that differ only in the split share a key and a lane exactly when
 * they share a class, and a key whatever their class (draw 4 or less), with the expected ranks; key and rank give the state back (`decode`,
 * `load`); and the dominance itself, move by move: of two states of one key, the one of lower rank
 * reaches every waste card the other reaches, and each move of the other is one of its own,
 * leading to the same state or to one of lower or equal rank under the same key.
 */

const GAMES: readonly [string, RulesOptions][] = [
  ['canfield-sequences', {}],
  ['canfield', {}],
  ['canfield-relaxed', {}],
  ['canfield-sequences', { draw: 2 }],
  ['canfield', { draw: 4 }],
  ['canfield-sequences', { draw: 5 }],
  ['canfield', { ranks: 5, piles: 2, reserve: 3 }],
];

/** The position with tableau piles sorted and, with unlimited redeals, a boundary split written as 0. */
function canonical(p: Position): string {
  let { stock, waste } = p;
  if (waste.length % p.rules.draw === 0 || stock.length === 0) {
    stock = [...stock, ...waste.slice().reverse()];
    waste = [];
  }
  const tableau = p.tableau.slice().sort((a, b) => (a[0] ?? 99) - (b[0] ?? 99));
  return JSON.stringify(formatPosition({ ...p, stock, waste, tableau, redealsUsed: 0 }));
}

/** Every talon split of the engine's state: 0, and just after each live talon entry. */
function splits(engine: Engine): number[] {
  const out = [0];
  for (let i = 0; i < engine.talon.length; i++) if (engine.talon.removed[i] === 0) out.push(i + 1);
  return out;
}

interface Packed {
  key: string;
  words: number[];
  rank: number;
  /** The table's lane for the state (its class mod 4). */
  lane: number;
}

function pack(engine: Engine, buffer: Uint32Array): Packed {
  const words = engine.encode(buffer);
  const list = Array.from(buffer.subarray(0, words));
  const rank = engine.passRank();
  // The solver hands `encode` the rank it has just computed: the key must be the same.
  const given = new Uint32Array(buffer.length);
  expect(Array.from(given.subarray(0, engine.encode(given, rank)))).toEqual(list);
  return { key: list.join(','), words: list, rank, lane: engine.laneOf(rank) };
}

/** The table entry and lane a packed state goes to. */
const slot = (a: Packed): string => `${a.key}/${a.lane}`;

/** Whether a state packed as `a` dominates one packed as `b` as the table sees it: same key and lane, rank no higher. */
const dominates = (a: Packed, b: Packed): boolean => slot(a) === slot(b) && a.rank <= b.rank;

/** The class and rank of a split with `w` of `live` talon cards in the waste. */
function expected(w: number, live: number, draw: number, talonLen: number): { cls: number; rank: number } {
  const boundary = w % draw === 0 || w === live;
  return boundary ? { cls: draw - 1, rank: talonLen + 1 } : { cls: w % draw, rank: w };
}

/** The talon entries dealing can bring to the waste top from the engine's state. */
function reachable(engine: Engine): Set<number> {
  engine.talon.list(null);
  return new Set(Array.from(engine.talon.candIdx.subarray(0, engine.talon.candCount)));
}

describe.each(GAMES)('split classes: %s %j', (game, options) => {
  const rules = resolveRules(game, options);
  const draw = rules.draw;

  it('a fresh talon: one lane per class, rank w off the boundary and above every w on it', () => {
    const start = dealFromSeed(rules, 11);
    const talon = [...start.waste, ...start.stock.slice().reverse()];
    const m = talon.length;
    expect(m).toBeGreaterThan(draw);
    const buffer = new Uint32Array(64);
    const slotOfClass = new Map<number, string>();
    const slots = new Set<string>();
    const keys = new Set<string>();
    for (let w = 0; w <= m; w++) {
      const p: Position = { ...start, waste: talon.slice(0, w), stock: talon.slice(w).reverse() };
      const engine = new Engine(p);
      expect(engine.talon.splitDominance).toBe(true);
      const packed = pack(engine, buffer);
      const { key, words, rank } = packed;
      const { cls, rank: wanted } = expected(w, m, draw, engine.talon.length);
      expect(new Uint8Array(buffer.buffer)[KEY_SPLIT_BYTE], `w = ${w}`).toBe(cls >> 2);
      expect(packed.lane, `w = ${w}`).toBe(cls & 3);
      expect(rank, `w = ${w}`).toBe(wanted);
      const known = slotOfClass.get(cls);
      if (known === undefined) slotOfClass.set(cls, slot(packed));
      else expect(slot(packed), `w = ${w}`).toBe(known);
      slots.add(slot(packed));
      keys.add(key);
      // Key and rank give the position back.
      const decoded = engine.decode(Uint32Array.from(words), words.length, rank);
      expect(canonical(decoded)).toBe(canonical(p));
      const other = new Engine(start);
      other.load(Uint32Array.from(words), words.length, rank);
      expect(canonical(other.toPosition())).toBe(canonical(p));
      expect(pack(other, buffer)).toEqual(packed);
    }
    expect(slots.size).toBe(draw - 1);
    // Classes 1 .. draw-1, four to a key: one key up to draw 4.
    expect(keys.size).toBe(Math.floor((draw - 1) / 4) + 1);
  });

  it('along random playouts, every split of a state: keys, ranks, decode, load and dominance', () => {
    const rng = mulberry(4242);
    const buffer = new Uint32Array(64);
    const moves = new Int32Array(4096);
    const theirs = new Int32Array(4096);
    let compared = 0;
    let boundaryCompared = 0;
    let removedMet = 0;
    for (let deal = 0; deal < 3; deal++) {
      const start = dealFromSeed(rules, 100 + deal);
      const engine = new Engine(start);
      const loader = new Engine(start);
      for (let step = 0; step < 40; step++) {
        const own = engine.talon.split;
        const all = splits(engine);
        const live = all.length - 1;
        if (live < engine.talon.length) removedMet++;
        const packed: Packed[] = [];
        for (let w = 0; w <= live; w++) {
          engine.talon.split = all[w]!;
          const p = pack(engine, buffer);
          const { cls, rank } = expected(w, live, draw, engine.talon.length);
          expect(p.rank).toBe(rank);
          expect(new Uint8Array(buffer.buffer)[KEY_SPLIT_BYTE]).toBe(cls >> 2);
          expect(p.lane).toBe(cls & 3);
          const decoded = engine.decode(Uint32Array.from(p.words), p.words.length, p.rank);
          expect(canonical(decoded)).toBe(canonical(engine.toPosition()));
          loader.load(Uint32Array.from(p.words), p.words.length, p.rank);
          expect(canonical(loader.toPosition())).toBe(canonical(engine.toPosition()));
          packed.push(p);
        }
        // Same class, same key and lane; other class of the same four, the same key (one entry)
        // but another lane.
        for (let a = 0; a <= live; a++) {
          for (let b = 0; b <= live; b++) {
            const ca = expected(a, live, draw, engine.talon.length).cls;
            const cb = expected(b, live, draw, engine.talon.length).cls;
            expect(slot(packed[a]!) === slot(packed[b]!), `w ${a} and ${b}`).toBe(ca === cb);
            expect(packed[a]!.key === packed[b]!.key, `w ${a} and ${b}`).toBe(ca >> 2 === cb >> 2);
          }
        }
        // Dominance, move by move, for the pairs where the table would skip b because of a: each w
        // over w + draw in its class, and each w of class draw - 1 over the boundary (w = 0).
        for (let a = 0; a <= live; a++) {
          for (const b of [a + draw, 0]) {
            if (b > live || a === b) continue;
            const boundary = packed[b]!.rank === engine.talon.length + 1;
            // A boundary (w = 0, or w + draw the whole talon) shares only the lane of class draw - 1.
            if (slot(packed[a]!) !== slot(packed[b]!)) {
              expect(boundary && packed[a]!.rank % draw !== draw - 1, `w ${a} and ${b}`).toBe(true);
              continue;
            }
            expect(dominates(packed[a]!, packed[b]!), `w ${a} over w ${b}`).toBe(true);
            if (boundary) boundaryCompared++;
            compared++;
            engine.talon.split = all[b]!;
            const cardsB = reachable(engine);
            const nb = engine.generate(theirs, 0);
            const after: Packed[] = [];
            for (let i = 0; i < nb; i++) {
              const info = engine.make(theirs[i]!);
              after.push(pack(engine, buffer));
              engine.undo(theirs[i]!, info);
            }
            engine.talon.split = all[a]!;
            const cardsA = reachable(engine);
            for (const c of cardsB) expect(cardsA.has(c), `card ${c} from w ${b}, not from w ${a}`).toBe(true);
            const na = engine.generate(moves, 0);
            const mine = new Map<number, number>();
            for (let i = 0; i < na; i++) mine.set(moves[i]! & ~REDEAL_BIT, moves[i]!);
            for (let i = 0; i < nb; i++) {
              const m = mine.get(theirs[i]! & ~REDEAL_BIT);
              expect(m, `move ${theirs[i]} from w ${b}, not from w ${a}`).toBeDefined();
              const info = engine.make(m!);
              const result = pack(engine, buffer);
              engine.undo(m!, info);
              expect(dominates(result, after[i]!), `after move ${m}: w ${a} over w ${b}`).toBe(true);
            }
          }
        }
        engine.talon.split = own;
        const n = engine.generate(moves, 0);
        if (n === 0) break;
        engine.make(moves[Math.floor(rng() * n)]!);
      }
    }
    expect(compared).toBeGreaterThan(100);
    expect(boundaryCompared).toBeGreaterThan(10);
    expect(removedMet).toBeGreaterThan(10);
  });
});

describe('split dominance is only for a larger draw with unlimited redeals', () => {
  it.each([
    ['storehouse', {}],
    ['canfield', { redeals: 2 }],
    ['canfield', { draw: 1 }],
    ['canister', {}],
  ] as [string, RulesOptions][])('%s %j', (game, options) => {
    expect(new Engine(dealFromSeed(resolveRules(game, options), 3)).talon.splitDominance).toBe(false);
  });
});
