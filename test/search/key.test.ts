import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dealFromSeed } from '../../src/rules/deal';
import { type Position, validatePosition } from '../../src/rules/position';
import { resolveRules, type RulesOptions } from '../../src/rules/rules';
import { Engine } from '../../src/search/engine';
import { canonicalKey, mulberry, playout, positionText, solveCommand } from './support';

/**
 * The engine's packed key (issue 3): the same state under any order of the tableau piles packs to
 * the same words, two different states never do, and make/undo restores the state exactly. The
 * key is only meaningful within one engine (it is relative to the deal the engine was loaded from:
 * reserve order and talon order), so injectivity is checked over states reached by one engine.
 */

const SEED = 7_331;

/** Full decks of every preset, and small decks where the same state is met again more often. */
const GAMES: readonly [string, RulesOptions][] = [
  ['canister', {}],
  ['american-canister', {}],
  ['british-canister', {}],
  ['storehouse', {}],
  ['canfield', {}],
  ['canfield-relaxed', {}],
  ['canfield-sequences', {}],
  ['canister', { ranks: 4, piles: 5 }],
  ['american-canister', { ranks: 3, piles: 4 }],
  ['british-canister', { ranks: 3, piles: 4 }],
  ['storehouse', { ranks: 4, reserve: 2, piles: 3, draw: 3, redeals: 1 }],
  ['storehouse', { ranks: 3, reserve: 1, piles: 2, redeals: 'unlimited' }],
  ['canfield', { ranks: 3, reserve: 2, piles: 3, draw: 1, redeals: 2 }],
  ['canfield', { ranks: 4, reserve: 2, piles: 2 }],
  ['canfield-relaxed', { ranks: 3, reserve: 1, piles: 3 }],
  ['canfield-relaxed', { ranks: 2, reserve: 0, piles: 4, redeals: 1 }],
  ['canfield-sequences', { ranks: 3, reserve: 2, piles: 4, draw: 1 }],
];

/** Per game: positions met again with the piles in another order (the "equal keys" half at work). */
const transpositions = new Map<string, number>();

const label = ([game, options]: readonly [string, RulesOptions]) => `${game} ${JSON.stringify(options)}`;

/** The key with the pass rank the table stores beside it: together they are the state. */
function packed(engine: Engine, buffer: Uint32Array): string {
  const words = engine.encode(buffer);
  return `${Array.from(buffer.subarray(0, words)).join(',')}/${engine.passRank()}`;
}

/** A random permutation of 0..n-1. */
function permutation(n: number, rng: () => number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/** Makes a random engine move; returns the move and its undo info, or undefined when there is none. */
function randomMove(engine: Engine, moves: Int32Array, rng: () => number): [number, number] | undefined {
  const count = engine.generate(moves, 0);
  if (count === 0) return undefined;
  const m = moves[Math.floor(rng() * count)]!;
  return [m, engine.make(m)];
}

describe.each(GAMES)('the packed key: %s %j', (game, options) => {
  const rules = resolveRules(game, options);
  const seeds = fc.integer({ min: 0, max: 2 ** 31 - 1 });

  it('is the same for every order of the tableau piles', () => {
    const buffer = new Uint32Array(64);
    let permuted = 0;
    fc.assert(
      fc.property(seeds, fc.integer(), (seed, choices) => {
        const rng = mulberry(choices);
        const start = dealFromSeed(rules, seed);
        for (const p of playout(start, 80, rng).filter((_, i) => i % 4 === 0)) {
          const key = packed(new Engine(p), buffer);
          for (let k = 0; k < 3; k++) {
            const order = permutation(p.tableau.length, rng);
            const shuffled: Position = { ...p, tableau: order.map((i) => p.tableau[i]!.slice()) };
            validatePosition(shuffled);
            expect(packed(new Engine(shuffled), buffer), `${solveCommand(game, options, seed)}: ${positionText(p)} piles ${order}`).toBe(key);
            if (order.some((v, i) => v !== i)) permuted++;
          }
        }
      }),
      { seed: SEED, numRuns: 20 },
    );
    expect(permuted).toBeGreaterThan(0);
  });

  it('tells apart exactly the positions that differ (up to pile order)', () => {
    const buffer = new Uint32Array(64);
    const moves = new Int32Array(4096);
    let states = 0;
    let transposed = 0;
    fc.assert(
      fc.property(seeds, fc.integer(), (seed, choices) => {
        const rng = mulberry(choices);
        const start = dealFromSeed(rules, seed);
        const engine = new Engine(start);
        // Both directions: a key names one position, a position has one key.
        const positionOf = new Map<string, string>();
        const keyOf = new Map<string, string>();
        // The tableau as first met, to count positions met again with the piles in another order.
        const layoutOf = new Map<string, string>();
        const record = () => {
          const position = engine.toPosition();
          const canonical = canonicalKey(position);
          const key = packed(engine, buffer);
          const where = `${solveCommand(game, options, seed)}: ${positionText(position)}`;
          const before = positionOf.get(key);
          if (before !== undefined) expect(canonical, `two positions share the key ${key}: ${where}`).toBe(before);
          else positionOf.set(key, canonical);
          const known = keyOf.get(canonical);
          if (known !== undefined) expect(key, `one position has two keys: ${where}`).toBe(known);
          else keyOf.set(canonical, key);
          const layout = JSON.stringify(position.tableau);
          const first = layoutOf.get(canonical);
          if (first === undefined) layoutOf.set(canonical, layout);
          else if (first !== layout) transposed++;
        };
        record();
        // Many walks from the root, each undone, so that states are met again by other paths.
        for (let walk = 0; walk < 40; walk++) {
          const path: [number, number][] = [];
          const length = 1 + Math.floor(rng() * 40);
          for (let step = 0; step < length; step++) {
            const made = randomMove(engine, moves, rng);
            if (!made) break;
            path.push(made);
            record();
          }
          while (path.length > 0) {
            const [m, info] = path.pop()!;
            engine.undo(m, info);
          }
        }
        states += positionOf.size;
      }),
      { seed: SEED, numRuns: 15 },
    );
    expect(states).toBeGreaterThan(100);
    transpositions.set(label([game, options]), transposed);
  });

  it('make then undo, in any order, restores the position and the key exactly', () => {
    const buffer = new Uint32Array(64);
    const moves = new Int32Array(4096);
    fc.assert(
      fc.property(seeds, fc.integer(), (seed, choices) => {
        const rng = mulberry(choices);
        const start = dealFromSeed(rules, seed);
        const engine = new Engine(start);
        const where = solveCommand(game, options, seed);
        expect(engine.toPosition()).toEqual(start);
        // Each entry: the move made, its undo info, and the position and key before it.
        const stack: { m: number; info: number; before: Position; key: string }[] = [];
        for (let step = 0; step < 150; step++) {
          if (stack.length > 0 && rng() < 0.35) {
            const { m, info, before, key } = stack.pop()!;
            engine.undo(m, info);
            expect(engine.toPosition(), `${where}: undo of move ${m} at depth ${stack.length}`).toEqual(before);
            expect(packed(engine, buffer)).toBe(key);
            continue;
          }
          const before = engine.toPosition();
          const key = packed(engine, buffer);
          const made = randomMove(engine, moves, rng);
          if (!made) {
            if (stack.length === 0) break;
            continue;
          }
          validatePosition(engine.toPosition());
          stack.push({ m: made[0], info: made[1], before, key });
        }
        while (stack.length > 0) {
          const { m, info, before } = stack.pop()!;
          engine.undo(m, info);
          expect(engine.toPosition(), where).toEqual(before);
        }
        expect(engine.toPosition(), where).toEqual(start);
      }),
      { seed: SEED, numRuns: 25 },
    );
  });
});

describe('the key checks are not vacuous', () => {
  it('cover every preset', () => {
    expect(new Set(GAMES.map(([game]) => game)).size).toBe(7);
    expect(GAMES.map(label)).toHaveLength(new Set(GAMES.map(label)).size);
  });

  // Runs after the checks above (vitest runs a file's tests in order).
  it('met, in every preset, positions again with their piles in another order', () => {
    for (const game of new Set(GAMES.map(([g]) => g))) {
      const met = GAMES.filter(([g]) => g === game).reduce((n, g) => n + (transpositions.get(label(g)) ?? 0), 0);
      expect(met, game).toBeGreaterThan(0);
    }
  });
});
