import { describe, expect, it } from 'vitest';
import { cardRank, cardSuit, makeCard } from '../../src/cards/card';
import { dealFromSeed } from '../../src/rules/deal';
import { buildsOn } from '../../src/rules/order';
import type { Move } from '../../src/rules/move';
import { formatMove } from '../../src/rules/notation';
import type { Position } from '../../src/rules/position';
import { resolveRules, type RulesOptions } from '../../src/rules/rules';
import { applyMove, checkMove, legalMoves } from '../../src/referee/referee';
import { Engine } from '../../src/search/engine';
import { FLIP_MASK, FLIP_SHIFT, FORCED_BIT } from '../../src/search/move-code';
import { canonicalKey, mulberry, playout, positionText } from './support';

/**
 * Twin swaps (docs/algorithms.md, rule 7), checked against the referee with an independent
 * reading of the rule. Two cards of a rank and colour are twins; when one is a pile top and the
 * other lies under a run in another pile, moving that run across and back are both legal moves, so
 * the positions that differ only by such swaps form a class that is won or lost as one. The engine
 * keeps each class in one form (the run on the lower card of each pair) and generates the moves of
 * the whole class. From positions of random referee playouts:
 * - every engine move, written out by `makeDescribed`, replays legally with the referee to exactly
 *   the engine's position, which is in the class's one form, and `undo` comes back;
 * - every referee move from every position of the class (each way of turning its pairs, made by
 *   the referee's own moves) other than a swap lands in the class of some engine move's position
 *   (up to pile order; a whole pile into a space is pruned as in successors.test.ts), unless the
 *   engine's one move is forced (a proved-safe foundation move settles the class).
 */

const twin = (c: number): number => makeCard(3 - cardSuit(c), cardRank(c));

/** Where card c lies in the tableau: [pile, index], or undefined. */
function find(p: Position, c: number): [number, number] | undefined {
  for (let i = 0; i < p.tableau.length; i++) {
    const j = p.tableau[i]!.indexOf(c);
    if (j >= 0) return [i, j];
  }
  return undefined;
}

/** The swappable pairs of p: [the twin on top of its pile, the twin under a run (built on it) in another pile]. */
function pairs(p: Position): [number, number][] {
  const out: [number, number][] = [];
  p.tableau.forEach((pile, i) => {
    const top = pile.at(-1);
    if (top === undefined) return;
    const at = find(p, twin(top));
    if (!at || at[0] === i) return;
    const run = p.tableau[at[0]]!.slice(at[1]);
    if (run.length > 1 && run.every((c, j) => j === 0 || buildsOn(p.rules, p.baseRank, c, run[j - 1]!))) out.push([top, twin(top)]);
  });
  return out;
}

/** The referee's move that carries the run above `under` onto `onto`. */
function swapMove(p: Position, under: number, onto: number): Move {
  const [s, i] = find(p, under)!;
  const [d] = find(p, onto)!;
  const pile = p.tableau[s]!;
  return { kind: 'move', card: pile[i + 1]!, count: pile.length - i - 1, from: { area: 'tableau', index: s }, to: { area: 'tableau', index: d } };
}

/** p with every swappable pair's run on the lower card, by referee moves. */
function oneForm(p: Position): Position {
  let q = p;
  for (;;) {
    const pair = pairs(q).find(([top, covered]) => top < covered);
    if (!pair) return q;
    q = applyMove(q, swapMove(q, pair[1], pair[0]));
  }
}

/** Every position of p's class: each subset of its pairs turned the other way. */
function classOf(p: Position): Position[] {
  const ps = pairs(p);
  const out: Position[] = [];
  for (let mask = 0; mask < 1 << ps.length; mask++) {
    let q = p;
    ps.forEach(([top, covered], i) => {
      if ((mask & (1 << i)) === 0) return;
      const move = swapMove(q, covered, top);
      expect(checkMove(q, move), `swap ${formatMove(move)} in ${positionText(q)}`).toBeUndefined();
      q = applyMove(q, move);
    });
    out.push(q);
  }
  return out;
}

const classKey = (p: Position): string => canonicalKey(oneForm(p));

const tally = new Map<string, number>();
const count = (kind: string) => tally.set(kind, (tally.get(kind) ?? 0) + 1);

function check(p: Position): void {
  const engine = new Engine(p);
  expect(engine.twins).toBe(true);
  const buffer = new Int32Array(4096);
  const n = engine.generate(buffer, 0);
  const moves = Array.from(buffer.subarray(0, n));
  const at = `position ${positionText(p)}`;
  const reached = new Set<string>();
  for (const m of moves) {
    const described: Move[] = [];
    const info = engine.makeDescribed(m, described);
    const text = described.map(formatMove).join(', ');
    let q = p;
    for (const move of described) {
      expect(checkMove(q, move), `${at}\n  engine move ${m} = ${text}: ${formatMove(move)} is illegal`).toBeUndefined();
      q = applyMove(q, move);
    }
    const position = engine.toPosition();
    expect(position, `${at}\n  engine move ${text} lands elsewhere than the referee's`).toEqual(q);
    expect(oneForm(position), `${at}\n  after ${text} the engine's position is not in its one form`).toEqual(position);
    engine.undo(m, info);
    expect(engine.toPosition(), `${at}\n  undo of ${text}`).toEqual(p);
    reached.add(canonicalKey(position));
    if (((m >>> FLIP_SHIFT) & FLIP_MASK) !== 0) count('engine move with a flip');
  }
  if (n === 1 && (moves[0]! & FORCED_BIT) !== 0) {
    count('forced');
    return;
  }
  const members = classOf(p);
  if (members.length > 1) count(`class of ${members.length}`);
  for (const q of members) {
    for (const move of legalMoves(q)) {
      if (move.kind !== 'move') continue;
      if (move.from.area === 'tableau' && move.to.area === 'tableau') {
        const pile = q.tableau[move.from.index]!;
        const below = pile[pile.length - move.count - 1];
        const onto = q.tableau[move.to.index]!.at(-1);
        if (below !== undefined && onto !== undefined && twin(below) === onto) continue; // a swap: same class
        if (onto === undefined && move.count === pile.length) continue; // a whole pile into a space
      }
      const next = applyMove(q, move);
      expect(reached.has(classKey(next)), `${at}\n  from ${positionText(q)} the referee's ${formatMove(move)} lands in a class no engine move reaches`).toBe(true);
      count('referee move matched');
    }
  }
}

const CASES: [string, RulesOptions, number][] = [
  ['canfield-sequences', {}, 60],
  ['canfield-sequences', { draw: 1 }, 20],
  ['canfield-sequences', { ranks: 6, reserve: 4, piles: 4 }, 40],
  ['canfield-sequences', { ranks: 5, reserve: 0, piles: 5 }, 40],
  ['american-canister', {}, 40],
  ['american-canister', { ranks: 5, piles: 5 }, 40],
];

describe('twin swaps', () => {
  it('apply only where both ways of a swap are always legal', () => {
    const on = (game: string) => new Engine(dealFromSeed(resolveRules(game), 1)).twins;
    expect(on('canfield-sequences')).toBe(true);
    expect(on('american-canister')).toBe(true);
    // Wrap lets one run hold both twins; whole-pile or single moves, other builds: no twins.
    for (const game of ['canfield', 'canfield-relaxed', 'storehouse', 'canister', 'british-canister']) expect(on(game), game).toBe(false);
  });

  for (const [game, options, deals] of CASES) {
    it(`${game} ${JSON.stringify(options)}: the engine's moves cover the class, each replays`, () => {
      const rules = resolveRules(game, options);
      const rng = mulberry(77);
      for (let deal = 1; deal <= deals; deal++) {
        for (const p of playout(dealFromSeed(rules, deal), 40, rng)) check(p);
      }
    });
  }

  it('met every kind of case', () => {
    for (const kind of ['engine move with a flip', 'class of 2', 'class of 4', 'forced', 'referee move matched']) {
      expect(tally.get(kind) ?? 0, `${kind} (seen: ${JSON.stringify([...tally])})`).toBeGreaterThan(0);
    }
  });
});
