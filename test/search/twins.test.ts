import { describe, expect, it } from 'vitest';
import { cardRank, cardSuit } from '../../src/cards/card';
import { dealFromSeed } from '../../src/rules/deal';
import { buildsOn } from '../../src/rules/order';
import type { Move } from '../../src/rules/move';
import { formatMove } from '../../src/rules/notation';
import type { Position } from '../../src/rules/position';
import { resolveRules, type RulesOptions } from '../../src/rules/rules';
import { applyMove, checkMove, legalMoves } from '../../src/referee/referee';
import { Engine } from '../../src/search/engine';
import { FLIP_MASK, FLIP_SHIFT, FORCED_BIT, MAX_FLIP_PAIRS } from '../../src/search/move-code';
import { canonicalKey, mulberry, playout, positionText, talonWaits } from './support';

/** Whether the waste top of `q` ends dealing, drawing one (rule 3: it may go home, proved safe). */
function endsDealing(q: Position): boolean {
  const top = q.waste.at(-1);
  if (q.rules.draw !== 1 || top === undefined) return false;
  const home = legalMoves(q).some((m) => m.kind === 'move' && m.from.area === 'waste' && m.to.area === 'foundation');
  return home && new Engine(q).isSafeToFoundation(top);
}

/**
 * Twin swaps (docs/algorithms.md, rule 7), checked against the referee with an independent
 * reading of the rule. Cards of one group (a rank and colour; a rank, in any suit) fit on and take
 * the same cards. When a group's free cards (pile tops, cards under a run built on them) are one
 * top and one card under a run in another pile, moving that run across and back are both legal
 * moves, so the positions that differ only by such swaps form a class that is won or lost as one.
 * The engine keeps each class in one form (the run on the lower card of each pair) and generates
 * the moves of the whole class. From positions of random referee playouts:
 * - every engine move, written out by `makeDescribed`, replays legally with the referee to exactly
 *   the engine's position, which is in the class's one form, and `undo` comes back;
 * - every referee move from every position of the class (each way of turning its pairs, made by
 *   the referee's own moves) other than a swap lands in the class of some engine move's position
 *   (up to pile order; a whole pile into a space is pruned as in successors.test.ts), or, in any
 *   suit, where swaps alone (ordinary moves there) lead from one; unless the engine's one move is
 *   forced (a proved-safe foundation move settles the class).
 * Slot groups (any suit): a group with two or more pile tops and at least one covered card. The
 * runs on its covered cards can be carried onto any of its free cards by swaps, and a top is always
 * left, so every such arrangement is in the class; the one form puts the runs, ordered by their
 * bottom cards, on the group's free cards in card order, lowest first. The engine gives pairs,
 * then slot groups in group order, at most MAX_FLIP_PAIRS entries (one per pair, one per slot
 * group's covered card); a group that does not fit is left alone, and so is it here.
 */

/** A card's group: the cards that fit on and take the same cards (rank and colour, or rank in any suit). */
const group = (p: Position, c: number): number =>
  p.rules.build === 'any-suit' ? cardRank(c) : cardRank(c) * 2 + (cardSuit(c) === 1 || cardSuit(c) === 2 ? 1 : 0);

/** Where card c lies in the tableau: [pile, index], or undefined. */
function find(p: Position, c: number): [number, number] | undefined {
  for (let i = 0; i < p.tableau.length; i++) {
    const j = p.tableau[i]!.indexOf(c);
    if (j >= 0) return [i, j];
  }
  return undefined;
}

/**
 * The swappable pairs of p, [the card on top of its pile, the card under a run built on it]: the
 * groups whose free cards (pile tops, and cards with a run built on them) are exactly one of each.
 */
function pairs(p: Position): [number, number][] {
  const { tops, covered } = freeCards(p);
  const out: [number, number][] = [];
  for (const [g, t] of tops) {
    const c = covered.get(g) ?? [];
    if (t.length === 1 && c.length === 1) out.push([t[0]!, c[0]!]);
  }
  return out.slice(0, MAX_FLIP_PAIRS);
}

/** Each group's free cards: the pile tops, and the cards under a run built on them (covered). */
function freeCards(p: Position): { tops: Map<number, number[]>; covered: Map<number, number[]> } {
  const tops = new Map<number, number[]>();
  const covered = new Map<number, number[]>();
  const add = (m: Map<number, number[]>, c: number) => m.set(group(p, c), [...(m.get(group(p, c)) ?? []), c]);
  for (const pile of p.tableau) {
    if (pile.length === 0) continue;
    add(tops, pile.at(-1)!);
    for (let i = pile.length - 2; i >= 0 && buildsOn(p.rules, p.baseRank, pile[i + 1]!, pile[i]!); i--) add(covered, pile[i]!);
  }
  return { tops, covered };
}

/** The slot groups of p (any suit only), each as its free cards, in group order within the entry budget. */
function slotGroups(p: Position): number[][] {
  if (p.rules.build !== 'any-suit') return [];
  const { tops, covered } = freeCards(p);
  let entries = pairs(p).length;
  const out: number[][] = [];
  for (const g of [...tops.keys()].sort((a, b) => a - b)) {
    const t = tops.get(g)!;
    const c = covered.get(g) ?? [];
    if (t.length < 2 || c.length < 1 || entries + c.length > MAX_FLIP_PAIRS) continue;
    entries += c.length;
    out.push([...t, ...c]);
  }
  return out;
}

/** The card directly on card c in p, if any. */
function cardOn(p: Position, c: number): number | undefined {
  const [s, i] = find(p, c)!;
  return p.tableau[s]![i + 1];
}

/** p with each slot group in its one form (the runs by bottom card on the free cards in card order), by referee moves. */
function arrangeSlots(p: Position): Position {
  let q = p;
  for (const free of slotGroups(p)) {
    const cards = [...free].sort((a, b) => a - b);
    const runs = cards.map((f) => cardOn(q, f)).filter((k): k is number => k !== undefined).sort((a, b) => a - b);
    runs.forEach((k, i) => {
      const target = cards[i]!;
      const [s, j] = find(q, k)!;
      const holder = q.tableau[s]![j - 1]!;
      if (holder === target) return;
      const other = cardOn(q, target);
      if (other !== undefined) {
        const spare = cards.find((f, at) => at > i && cardOn(q, f) === undefined)!;
        q = applyMove(q, swapMove(q, target, spare));
      }
      q = applyMove(q, swapMove(q, holder, target));
    });
  }
  return q;
}

/** The referee's move that carries the run above `under` onto `onto`. */
function swapMove(p: Position, under: number, onto: number): Move {
  const [s, i] = find(p, under)!;
  const [d] = find(p, onto)!;
  const pile = p.tableau[s]!;
  return { kind: 'move', card: pile[i + 1]!, count: pile.length - i - 1, from: { area: 'tableau', index: s }, to: { area: 'tableau', index: d } };
}

/** p with every swappable pair's run on the lower card and every slot group in its one form, by referee moves; then its crosses in order. */
function oneForm(p: Position): Position {
  let q = p;
  for (;;) {
    const pair = pairs(q).find(([top, covered]) => top < covered);
    if (!pair) return orderCrosses(arrangeSlots(q));
    q = applyMove(q, swapMove(q, pair[1], pair[0]));
  }
}

/** Whether crossed twins are kept in order: alternating colours, no wrap, every pile a run (canfield-sequences). */
const crossing = (p: Position): boolean => new Engine(p).crosses;

/**
 * The crossed twins of p: groups of two twins (one rank and colour) both in the tableau with a card
 * on each, as [lower twin, higher twin]. Where every pile is a run (canfield-sequences), the cards on
 * them are the two twins one rank below.
 */
function crosses(p: Position): [number, number][] {
  if (!crossing(p)) return [];
  const out: [number, number][] = [];
  for (const pile of p.tableau) {
    for (const t of pile.slice(0, -1)) {
      const u = (3 - cardSuit(t)) * 13 + cardRank(t);
      const w = find(p, u);
      if (t < u && w && w[1] < p.tableau[w[0]]!.length - 1) out.push([t, u]);
    }
  }
  return out;
}

/** p with the cards above a and above b exchanged: no move of the game, but a position won or lost with p. */
function exchange(p: Position, a: number, b: number): Position {
  const [s, i] = find(p, a)!;
  const [d, j] = find(p, b)!;
  const tableau = p.tableau.map((pile) => pile.slice());
  const above = tableau[s]!.splice(i + 1);
  tableau[s]!.push(...tableau[d]!.splice(j + 1));
  tableau[d]!.push(...above);
  return { ...p, tableau };
}

/** p with each cross in order: the lower of the two cards on a cross on its lower twin. */
function orderCrosses(p: Position): Position {
  let q = p;
  for (const [t, u] of crosses(p)) if (cardOn(q, t)! > cardOn(q, u)!) q = exchange(q, t, u);
  return q;
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
  // Crossed twins: each member with each one cross exchanged, and with all of them.
  const exchanged: Position[] = [];
  for (const q of out) {
    const cs = crosses(q);
    for (const [t, u] of cs) exchanged.push(exchange(q, t, u));
    if (cs.length > 1) exchanged.push(cs.reduce((x, [t, u]) => exchange(x, t, u), q));
  }
  return [...out, ...exchanged, ...slotArrangements(out, 24)];
}

/**
 * More positions of the class: those that carrying runs within slot groups (swaps onto a top of
 * the same group) leads to from `from`, breadth-first, at most `most` of them.
 */
function slotArrangements(from: Position[], most: number): Position[] {
  const inSlot = (q: Position, move: Move): boolean => {
    if (!isSwap(q, move) || move.kind !== 'move' || move.to.area !== 'tableau') return false;
    const onto = q.tableau[move.to.index]!.at(-1)!;
    return slotGroups(q).some((free) => free.includes(onto));
  };
  const out: Position[] = [];
  for (const { position } of bySwaps(from, inSlot)) {
    if (out.length === most) break;
    out.push(position);
  }
  return out;
}

/**
 * The positions that the moves `take` accepts lead to from `from`, breadth-first, each once (up to
 * pile order) with its key; not the starting positions themselves.
 */
function* bySwaps(from: Position[], take: (q: Position, move: Move) => boolean): Generator<{ position: Position; key: string }> {
  const seen = new Set(from.map(canonicalKey));
  const queue = [...from];
  for (let i = 0; i < queue.length; i++) {
    const q = queue[i]!;
    for (const move of legalMoves(q)) {
      if (!take(q, move)) continue;
      const next = applyMove(q, move);
      const key = canonicalKey(next);
      if (seen.has(key)) continue;
      seen.add(key);
      queue.push(next);
      yield { position: next, key };
    }
  }
}

const classKey = (p: Position): string => canonicalKey(oneForm(p));

/** Whether a referee move carries the whole run above a card onto a pile top of the card's group. */
function isSwap(q: Position, move: Move): boolean {
  if (move.kind !== 'move' || move.from.area !== 'tableau' || move.to.area !== 'tableau') return false;
  const pile = q.tableau[move.from.index]!;
  const below = pile[pile.length - move.count - 1];
  const onto = q.tableau[move.to.index]!.at(-1);
  return below !== undefined && onto !== undefined && group(q, below) === group(q, onto);
}

/**
 * Whether some position that swaps alone lead to from x (breadth-first, up to a bound) is one of
 * `keys`. Swaps of a pair stay in its class; in any suit, a group with more free cards is no pair,
 * and its swaps are ordinary moves the engine makes, so the engine reaches those positions too.
 */
function swapsReach(x: Position, keys: Set<string>): boolean {
  if (keys.has(canonicalKey(x))) return true;
  let looked = 1;
  for (const { key } of bySwaps([x], isSwap)) {
    if (keys.has(key)) return true;
    if (++looked >= 20_000) break;
  }
  return false;
}

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
    // Exchanges of crossed twins are no moves: the engine lands where the referee does, crosses in order.
    expect(position, `${at}\n  engine move ${text} lands elsewhere than the referee's`).toEqual(orderCrosses(q));
    expect(oneForm(position), `${at}\n  after ${text} the engine's position is not in its one form`).toEqual(position);
    engine.undo(m, info);
    expect(engine.toPosition(), `${at}\n  undo of ${text}`).toEqual(p);
    reached.add(canonicalKey(position));
    if (((m >>> FLIP_SHIFT) & FLIP_MASK) !== 0) count('engine move with a flip');
    if (((m >>> FLIP_SHIFT) & FLIP_MASK) > pairs(p).length) count('engine move with a slot flip');
  }
  if (n === 1 && (moves[0]! & FORCED_BIT) !== 0) {
    count('forced');
    return;
  }
  // Rule 11 (docs/algorithms.md): drawing more than one, a waste card that may be built on a pile
  // does not go home from the waste; it goes home from the pile after the build. The positions
  // that the engine's builds of a waste card and then a generated move of it home reach:
  const viaPile = new Set<string>();
  const buffer2 = new Int32Array(4096);
  // A move may turn a twin pair before it and put the state in its one form after it (the build
  // can put a run on the card just built): the described moves say which card goes where.
  const movesCard = (steps: Move[], from: string, to: string, card?: number) =>
    steps.find((x) => x.kind === 'move' && x.from.area === from && x.to.area === to && (card === undefined || x.card === card));
  for (const m of moves) {
    const built: Move[] = [];
    const info = engine.makeDescribed(m, built);
    const build = movesCard(built, 'waste', 'tableau');
    if (build !== undefined && build.kind === 'move') {
      const n2 = engine.generate(buffer2, 0);
      for (let i = 0; i < n2; i++) {
        const steps: Move[] = [];
        const info2 = engine.makeDescribed(buffer2[i]!, steps);
        if (movesCard(steps, 'tableau', 'foundation', build.card)) viaPile.add(canonicalKey(engine.toPosition()));
        engine.undo(buffer2[i]!, info2);
      }
    }
    engine.undo(m, info);
  }
  const members = classOf(p);
  if (members.length > 1) count(`class of ${members.length}`);
  if (crosses(p).length > 0) count('crossed twins');
  if (slotGroups(p).length > 0) count('slot group');
  for (const q of members) {
    for (const move of legalMoves(q)) {
      if (move.kind !== 'move') continue;
      if (isSwap(q, move)) continue; // swaps alone: checked through the positions they lead to
      if (move.from.area === 'tableau' && move.to.area === 'tableau') {
        const pile = q.tableau[move.from.index]!;
        if (q.tableau[move.to.index]!.length === 0 && move.count === pile.length) continue; // a whole pile into a space
      }
      const next = applyMove(q, move);
      const homeViaPile =
        move.from.area === 'waste' &&
        move.to.area === 'foundation' &&
        q.rules.draw > 1 &&
        legalMoves(q).some((b) => b.kind === 'move' && b.from.area === 'waste' && b.to.area === 'tableau' && q.tableau[b.to.index]!.length > 0);
      if (homeViaPile) {
        expect(viaPile.has(classKey(next)) || swapsReach(next, viaPile), `${at}\n  from ${positionText(q)} the referee's ${formatMove(move)}: no engine build and move home reach it`).toBe(true);
        count('referee waste card home, reached through a pile');
        continue;
      }
      if (talonWaits(q, move, endsDealing(q))) {
        // Rule 15 read on this member drops it (checked pile by pile in successors.test.ts). A move
        // it keeps on some member must be reached: the engine counts a unit on any pile, and a top's
        // twin (any card of its rank, in any suit) as a top.
        count('referee waste card left for later (rule 15)');
        continue;
      }
      if (reached.has(classKey(next))) count('referee move matched');
      else {
        expect(swapsReach(next, reached), `${at}\n  from ${positionText(q)} the referee's ${formatMove(move)} lands where no engine move and swaps reach`).toBe(true);
        count('referee move matched through swaps');
      }
    }
  }
}

const CASES: [string, RulesOptions, number][] = [
  ['canfield-sequences', {}, 60],
  ['canfield-sequences', { draw: 1 }, 20],
  // Rule 15 keeps a waste card's move home when a swap uncovers the next card of its suit.
  ['canfield-sequences', { ranks: 6, reserve: 4, piles: 4, draw: 1 }, 60],
  ['canfield-sequences', { ranks: 6, reserve: 4, piles: 4 }, 40],
  ['canfield-sequences', { ranks: 5, reserve: 0, piles: 5 }, 40],
  ['american-canister', {}, 40],
  ['american-canister', { ranks: 5, piles: 5 }, 40],
  ['canister', {}, 40],
  ['canister', { ranks: 5, piles: 5 }, 40],
  // Given a stock, regardless of suit: rule 15 keeps a waste card's move home when a carry or a swap
  // makes a card of the next one's rank a top (any card of a top's rank counts).
  ['canister', { ranks: 5, piles: 3, pileCards: 3, redeals: 'unlimited' }, 40],
];

describe('twin swaps', () => {
  it('apply only where both ways of a swap are always legal', () => {
    const on = (game: string) => new Engine(dealFromSeed(resolveRules(game), 1)).twins;
    expect(on('canfield-sequences')).toBe(true);
    expect(on('american-canister')).toBe(true);
    expect(on('canister')).toBe(true);
    // Wrap lets one run hold both twins; whole-pile or single moves, building in suit: no twins.
    for (const game of ['canfield', 'canfield-relaxed', 'storehouse', 'british-canister']) expect(on(game), game).toBe(false);
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
    for (const kind of ['crossed twins', 'engine move with a flip', 'referee move matched through swaps', 'class of 2', 'class of 4', 'forced', 'referee move matched', 'slot group', 'engine move with a slot flip', 'referee waste card home, reached through a pile']) {
      expect(tally.get(kind) ?? 0, `${kind} (seen: ${JSON.stringify([...tally])})`).toBeGreaterThan(0);
    }
  });
});
