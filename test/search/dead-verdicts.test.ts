import { describe, expect, it } from 'vitest';
import { dealFromSeed } from '../../src/rules/deal';
import type { Position } from '../../src/rules/position';
import { resolveRules, type RulesOptions } from '../../src/rules/rules';
import { DeadCheck } from '../../src/search/dead';
import { DEAD, DeadVerdicts, LIVE, NO_VERDICT, verdictKeyWords } from '../../src/search/dead-verdicts';
import { Engine } from '../../src/search/engine';
import { KEY_SPLIT_BYTE, MAX_KEY_WORDS } from '../../src/search/key';
import { hashKey } from '../../src/search/table';
import { Solver } from '../../src/search/solver';
import { mulberry } from './support';

/**
 * Rule 6's verdicts kept by the key without its split (`DeadVerdicts`, docs/algorithms.md, rule 6,
 * "Verdicts kept by the key without its split"). Here: the cache itself (a verdict comes back only
 * for the same key, whatever its split byte, and only in the deal it was kept in, never from a
 * shared slot); along random walks over the engine's moves, at every split of each position, the
 * verdict a check with kept verdicts gives is the verdict of a fresh check; the search is the
 * same, node for node, with no cache, a small one and the default; and a dead state, proved in every
 * lane of its entry (rule 6, "Lost at every split"), is never checked again, so the kept verdicts
 * answer only live ones.
 */

const MiB = 1024 * 1024;

/** A key of `words` random words. */
function randomKey(rng: () => number, words: number): Uint32Array {
  const key = new Uint32Array(MAX_KEY_WORDS);
  for (let i = 0; i < words; i++) key[i] = Math.floor(rng() * 2 ** 32);
  return key;
}

/** The same key with its split byte set to `split`. */
function withSplit(key: Uint32Array, split: number): Uint32Array {
  const other = key.slice();
  new Uint8Array(other.buffer)[KEY_SPLIT_BYTE] = split;
  return other;
}

describe('DeadVerdicts, the cache', () => {
  it('answers a kept verdict for the same key at any split, and nothing for another key or another deal', () => {
    const rng = mulberry(61);
    const v = new DeadVerdicts();
    v.begin(16, 1024 * MiB);
    expect(v.on).toBe(true);
    expect(v.bytes).toBe((1 << 10) * 17 * 4);
    const key = randomKey(rng, 12);
    const before = key.slice();
    expect(v.find(key, 12)).toBe(NO_VERDICT);
    v.keep(key, 12, DEAD);
    expect(v.find(key, 12)).toBe(DEAD);
    // The caller's key is left as it was.
    expect(key).toEqual(before);
    for (const split of [0, 1, 7, 255]) expect(v.find(withSplit(key, split), 12)).toBe(DEAD);
    // Any other byte, or another length, is another state.
    for (let byte = 0; byte < 48; byte++) {
      if (byte === KEY_SPLIT_BYTE) continue;
      const other = key.slice();
      new Uint8Array(other.buffer)[byte]! ^= 1;
      expect(v.find(other, 12), `byte ${byte}`).toBe(NO_VERDICT);
    }
    expect(v.find(key, 11)).toBe(NO_VERDICT);
    expect(v.find(key, 13)).toBe(NO_VERDICT);
    // A new deal forgets every verdict.
    v.begin(16, 1024 * MiB);
    expect(v.find(key, 12)).toBe(NO_VERDICT);
    v.keep(key, 12, LIVE);
    expect(v.find(withSplit(key, 9), 12)).toBe(LIVE);
  });

  it('two keys of one slot: the newer verdict replaces the older, which is then not known (never the other\'s)', () => {
    const rng = mulberry(62);
    const v = new DeadVerdicts();
    // Room for 64 entries of 5 words: 64 * 5 * 4 * 64 bytes of budget.
    v.begin(4, 64 * 5 * 4 * 64);
    expect(v.bytes).toBe(64 * 5 * 4);
    const a = randomKey(rng, 4);
    let b = randomKey(rng, 4);
    const slotOf = (k: Uint32Array) => hashKey(withSplit(k, 0), 4) & 63;
    while (slotOf(b) !== slotOf(a)) b = randomKey(rng, 4);
    expect(v.find(a, 4)).toBe(NO_VERDICT);
    v.keep(a, 4, DEAD);
    expect(v.find(b, 4)).toBe(NO_VERDICT);
    v.keep(b, 4, LIVE);
    expect(v.find(a, 4)).toBe(NO_VERDICT);
    expect(v.find(b, 4)).toBe(LIVE);
  });

  it('is off where the budget has no room for it, or the game keeps no verdicts', () => {
    const v = new DeadVerdicts();
    v.begin(16, 64 * 17 * 4 * 64 - 1);
    expect(v.on).toBe(false);
    expect(v.bytes).toBe(0);
    v.begin(undefined, 1024 * MiB);
    expect(v.on).toBe(false);
    expect(v.find(randomKey(mulberry(1), 4), 4)).toBe(NO_VERDICT);
    // A redeal limit (the waste a fixed stack at the last pass) or no talon: no verdicts kept.
    expect(verdictKeyWords(4, 52, 34, 2)).toBeUndefined();
    expect(verdictKeyWords(4, 52, 0, -1)).toBeUndefined();
    expect(verdictKeyWords(4, 52, 34, -1)).toBe(16);
  });
});

const GAMES: readonly [string, RulesOptions, boolean][] = [
  ['canfield', {}, true],
  ['canfield', { draw: 1 }, true],
  ['canfield', { ranks: 8, piles: 3, reserve: 8 }, true],
  ['canfield-sequences', {}, false],
  ['canfield-sequences', { ranks: 8, piles: 3, reserve: 8 }, false],
];

/**
 * Positions along a random walk over the engine's moves (the search's own: whole piles moved onto
 * each other, which bury cards and lead to most dead states, and talon cards played from anywhere
 * in the talon), from `start`; the walk stops early where no move is left.
 */
function engineWalk(start: Position, steps: number, rng: () => number): Position[] {
  const engine = new Engine(start);
  const moves = new Int32Array(4096);
  const seen = [start];
  for (let i = 0; i < steps; i++) {
    const n = engine.generate(moves, 0);
    if (n === 0 || engine.isWon()) break;
    engine.make(moves[Math.floor(rng() * n)]!);
    seen.push(engine.toPosition());
  }
  return seen;
}

/** The position with the talon split after `w` of its cards (unlimited redeals: any split is a state of the game). */
function splitAt(p: Position, w: number): Position {
  const talon = [...p.waste, ...p.stock.slice().reverse()];
  return { ...p, waste: talon.slice(0, w), stock: talon.slice(w).reverse() };
}

describe.each(GAMES)('kept verdicts are fresh verdicts: %s %j', (game, options, quick) => {
  it("along random walks over the engine's moves, at every split of each position", () => {
    const rules = resolveRules(game, options);
    const rng = mulberry(6301);
    const verdicts = new DeadVerdicts();
    const key = new Uint32Array(MAX_KEY_WORDS);
    let fromKept = 0;
    let deadFromKept = 0;
    let compared = 0;
    for (let deal = 1; deal <= 12; deal++) {
      const start = dealFromSeed(rules, deal);
      const first = new Engine(start);
      verdicts.begin(verdictKeyWords(first.piles, 4 * first.ranks, first.talon.length, first.talon.redealLimit), 64 * MiB);
      expect(verdicts.on).toBe(true);
      for (const p of engineWalk(start, 60, rng)) {
        const talon = p.waste.length + p.stock.length;
        for (let w = 0; w <= talon; w++) {
          const engine = new Engine(splitAt(p, w));
          const words = engine.encode(key, engine.passRank());
          const kept = new DeadCheck(engine, true, quick, verdicts);
          const fresh = new DeadCheck(engine, true, quick);
          const dead = kept.isDead(key, words);
          expect(dead, `${game} deal ${deal} split ${w}`).toBe(fresh.isDead());
          expect(kept.deadByCount).toBe(fresh.deadByCount);
          fromKept += kept.fromKept;
          if (kept.fromKept > 0 && dead) deadFromKept++;
          compared++;
        }
      }
    }
    // The walk met keys again (every split after the first of a position) and dead ones among them.
    expect(fromKept).toBeGreaterThan(compared / 2);
    expect(deadFromKept).toBeGreaterThan(0);
  });
});

/** A cache of at most `entries` verdicts (0: one that keeps none), whatever the search's budget. */
class SizedVerdicts extends DeadVerdicts {
  constructor(private readonly entries: number) {
    super();
  }

  override begin(maxWords: number | undefined): void {
    super.begin(this.entries > 0 ? maxWords : undefined, maxWords === undefined ? 0 : this.entries * (maxWords + 1) * 4 * 64);
  }
}

describe('the search with kept verdicts', () => {
  const run = (seed: number, deadCheck: boolean | 'auto', entries?: number) => {
    const solver = new Solver({ memoryMiB: 256 });
    if (entries !== undefined) (solver as unknown as { verdicts: DeadVerdicts }).verdicts = new SizedVerdicts(entries);
    return solver.solve(dealFromSeed(resolveRules('canfield'), seed), { nodeLimit: 200_000, deadCheck });
  };

  it('is the same search, node for node, as with no verdicts kept, whatever the cache holds (Hoyle Canfield, both forms of the check)', () => {
    for (const deadCheck of ['auto', true] as const) {
      for (const seed of [377, 869]) {
        const none = run(seed, deadCheck, 0);
        expect(none.deadFromKept).toBe(0);
        const small = run(seed, deadCheck, 64);
        const large = run(seed, deadCheck);
        expect(large.deadFromKept).toBeGreaterThan(small.deadFromKept!);
        expect(small.deadFromKept).toBeGreaterThan(0);
        for (const field of ['verdict', 'nodes', 'uniqueStates', 'deadChecked', 'deadStates', 'deadByCount'] as const) {
          expect(small[field], `${seed} ${deadCheck} ${field}`).toBe(none[field]);
          expect(large[field], `${seed} ${deadCheck} ${field}`).toBe(none[field]);
        }
      }
    }
  });

  it('answers only live verdicts: a state found dead is proved in every lane of its entry, so it is never checked again (Hoyle Canfield)', () => {
    // Counts what the kept verdicts answer. A dead state's entry holds every split class of its key
    // (draw 3), and every lane is proved at rank 0, so the same key met again is present, not
    // checked: a dead verdict is never asked for twice. Live ones are (the state at another split
    // is searched, and checked again if a covering move enters it).
    class CountingVerdicts extends DeadVerdicts {
      dead = 0;
      live = 0;
      override find(key: Uint32Array, words: number): number {
        const verdict = super.find(key, words);
        if (verdict === LIVE) this.live++;
        else if (verdict !== NO_VERDICT) this.dead++;
        return verdict;
      }
    }
    for (const deadCheck of ['auto', true] as const) {
      for (const seed of [377, 869]) {
        const solver = new Solver({ memoryMiB: 256 });
        const counting = new CountingVerdicts();
        (solver as unknown as { verdicts: DeadVerdicts }).verdicts = counting;
        const result = solver.solve(dealFromSeed(resolveRules('canfield'), seed), { nodeLimit: 200_000, deadCheck });
        expect(result.deadStates, `${seed} ${deadCheck}`).toBeGreaterThan(1000);
        expect(counting.live, `${seed} ${deadCheck}`).toBeGreaterThan(0);
        expect(counting.live).toBe(result.deadFromKept);
        expect(counting.dead, `${seed} ${deadCheck}`).toBe(0);
      }
    }
  });

  it('keeps none where the redeals are limited (Storehouse) or no check is made (canfield-sequences by default)', () => {
    const solver = new Solver({ memoryMiB: 64 });
    const storehouse = solver.solve(dealFromSeed(resolveRules('storehouse'), 3), { nodeLimit: 50_000, deadCheck: true });
    expect(storehouse.deadChecked).toBeGreaterThan(0);
    expect(storehouse.deadFromKept).toBe(0);
    const sequences = solver.solve(dealFromSeed(resolveRules('canfield-sequences'), 377), { nodeLimit: 50_000, deadCheck: true });
    expect(sequences.deadFromKept).toBeGreaterThan(0);
    expect(solver.solve(dealFromSeed(resolveRules('canfield-sequences'), 377), { nodeLimit: 50_000 }).deadFromKept).toBeUndefined();
  });
});
