import { type Card, cardColour, cardRank, cardSuit, makeCard } from '../cards/card';
import type { Move, Place } from '../rules/move';
import { rankAtOrder } from '../rules/order';
import type { Position } from '../rules/position';
import { autoFillsFromReserve, type Rules } from '../rules/rules';
import { Talon } from './talon';
import {
  AUTO_FILL_BIT,
  COUNT_SHIFT,
  DST_SHIFT,
  FLIP_MASK,
  FLIP_SHIFT,
  FORCED_BIT,
  MAX_FLIP_PAIRS,
  moveCount,
  moveDst,
  moveSrc,
  moveSuit,
  moveTalon,
  moveType,
  MT_F2T,
  MT_R2F,
  MT_R2T,
  MT_T2F,
  MT_T2T,
  MT_W2F,
  MT_W2T,
  PILE_MASK,
  REDEAL_BIT,
  SRC_SHIFT,
  SUIT_SHIFT,
  TALON_SHIFT,
  TWIN_BIT,
} from './move-code';

/** Who may fill an empty tableau pile, as bit flags, worked out once from the rules. */
export const FILL_TABLEAU = 1;
export const FILL_RESERVE = 2;
export const FILL_WASTE = 4;
export const FILL_FOUNDATION = 8;
// Rule 15 (`markHand`): where a card is at hand, beside bit p for the bottom of a unit on pile p.
const HAND_TALON = 1 << 30;
const HAND_RESERVE = 1 << 29;
const HAND_TABLEAU = 1 << 28;
const HAND_TOP = 1 << 27;
const PILE_BITS = (1 << 27) - 1;

/** Weights of `Engine.evaluate`: cards home, breaks, cards above a card a foundation takes next, spaces. */
const W_HOME = 50;
const W_BREAK = 5;
const W_BURIED = 40;
const W_SPACE = 10;

/** A pseudo-random term in 0..JITTER-1 for move m in move order `variant` (a fixed hash). */
const JITTER = 64; // a power of two (see jitter)
function jitter(m: number, variant: number): number {
  let h = Math.imul(m ^ Math.imul(variant, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h & (JITTER - 1); // JITTER is a power of two: the low bits, an integer operation
}

/** The key byte that holds the talon split (or, under split dominance, its class): see `encode`. */
export const KEY_SPLIT_BYTE = 3;

/** No card: an empty slot in the 6-bit card fields of the key. */
const NO_CARD = 63;

/** Sorts the n (at most a few) entries of a from `at` ascending. */
function sortSmall(a: Int32Array, at: number, n: number): void {
  for (let i = at + 1; i < at + n; i++) {
    const v = a[i]!;
    let j = i;
    while (j > at && a[j - 1]! > v) {
      a[j] = a[j - 1]!;
      j--;
    }
    a[j] = v;
  }
}

/**
 * Copies k cards within the piles' array from `from` to `to` (ranges in different piles, or `to`
 * below `from`): a loop, cheaper than `copyWithin` for the few cards a move carries.
 */
function copyCards(a: Uint8Array, to: number, from: number, k: number): void {
  for (let i = 0; i < k; i++) a[to + i] = a[from + i]!;
}

/** Scratch of `sortMoves`, shared: an engine is used by one search at a time, on one thread. */
const SORT_SCORES = new Int32Array(4096);
/** A twin-log record of an exchange of crossed twins (`orderCrosses`), not a swap. */
const CROSS_RECORD = 1 << 16;
/** The choice bits a pile's `pileBits` holds (see there): at most 24, so that they fit beside a partly filled key word. */
const BITS_KEPT = 24;

/** Each card code's suit (`cardSuit`, looked up rather than divided on the hot paths). */
const SUIT_OF = Uint8Array.from({ length: 64 }, (_, c) => cardSuit(c));

/**
 * The working state of one search: the position held in typed arrays, changed in place by
 * make/undo, with move generation into caller-owned buffers and the packed, canonical key.
 *
 * Layout, and why:
 * - Tableau piles live in one Uint8Array, `maxHeight` slots per pile, so that a move is a few byte
 *   copies and nothing is allocated per node.
 * - The reserve only ever loses its top card, so it is the dealt list plus a count.
 * - Stock and waste are one "talon" (`Talon`, talon.ts): the talon order, a removed flag per entry,
 *   the split between waste and stock, and the redeals used.
 * - Dealing is never a move of its own: every card that dealing (and redealing) can bring to the
 *   waste top is offered directly as a move ("K+" stock). Deals commute with every move that does
 *   not touch the waste, so every game can be reordered to deal only just before playing a waste
 *   card, and nothing is lost.
 */
export class Engine {
  readonly rules: Rules;
  readonly ranks: number;
  readonly piles: number;
  readonly maxHeight: number;
  readonly baseRank: number;
  /** Order of each card above its foundation's base (0 = base rank), by card code. */
  readonly order = new Int8Array(64);
  /** fits[c * 64 + t]: card c may be built on card t on the tableau. */
  readonly fits = new Uint8Array(64 * 64);
  /** builders[t * 4 ..]: the cards that may be built on card t (at most 4), 255 past the last. */
  readonly builders = new Uint8Array(64 * 4).fill(255);
  // onPiles[c]: bit d set when card c may be built on the top of pile d; valid while onStamp[c]
  // equals tops, which `markTops` renews once per `generate`.
  private readonly onPiles = new Int32Array(64);
  private readonly onStamp = new Int32Array(64);
  private tops = 0;

  readonly pile: Uint8Array;
  readonly len: Int32Array;
  readonly found = new Int32Array(4);
  readonly reserve: Uint8Array;
  resCount = 0;
  /** Stock and waste, the split, redeals used, and the cards dealing can reach (`Talon`). */
  readonly talon: Talon;
  readonly autoReserve: boolean;
  readonly fillFlags: number;
  readonly kingsOnly: boolean;
  readonly foundationToTableau: boolean;
  readonly totalCards: number;
  /**
   * Rule 12 (docs/algorithms.md): a rank at which this state is known lost, or -1. `generate` then
   * leaves out the waste cards that the state at that rank reaches too. Set by the solver for the
   * state it generates; it is part of what the list depends on.
   */
  lostRank = -1;
  /**
   * Rule 12 across classes, set by the solver before `generate`: the table holds this state at
   * another split class proved lost, so the waste cards every split reaches lead to lost states.
   */
  otherClassLost = false;

  private readonly pileOrder: Int32Array;
  /** Whether some pile has become empty or stopped being empty since `pileOrder` was sorted. */
  private orderStale = true;
  /** The game has only a tableau (the Canister family): a key alone gives the whole state back. */
  readonly tableauOnly: boolean;
  /**
   * Whether `generate` sorts its moves by `score`: the tableau-only games, games where foundation
   * cards come back (canfield-relaxed), and every later run of a restarted search (variant > 0),
   * each with its own jitter. See docs/algorithms.md, "restarts".
   */
  readonly ordered: boolean;

  /**
   * Same-suit builds without wrap, whole piles moving, no automatic fill and no card back from a
   * foundation (Storehouse): every card has exactly one card it may be built on, and building it
   * there at once is proved safe (docs/algorithms.md, rule 9), so such a build is forced.
   */
  readonly chainBuilds: boolean;
  /**
   * Only whole piles move and foundation cards never come back (Hoyle Canfield): a card on a pile is
   * uncovered only when every card above it has gone home, so a move that makes a card wait for
   * itself (above a lower card of its own suit, or through other piles and suits, `waitsFor`) leads
   * to a state that can never be won (docs/algorithms.md, rule 10). Such moves are not generated.
   */
  readonly noBurial: boolean;
  /**
   * Drawing more than one card, outside rule-9 games: a waste card that may go home and may also be
   * built on a pile is offered only the build; from the pile its foundation move leads to the same
   * state (docs/algorithms.md, rule 11).
   */
  readonly homeViaPile: boolean;
  /**
   * Dealing one card at a time with no limit on redeals, and no card back from a foundation: every
   * card of the talon is at hand whenever it is needed, so a talon card is played onto a pile only
   * when a card that may be built on it is at hand too, and goes home only when the next card of
   * its suit can follow it there (docs/algorithms.md, rule 15: `wastePlayNeeded`, `wasteHomeNeeded`).
   */
  readonly talonAtHand: boolean;
  // Scratch of rule 15, valid where `handStamp` is `handNow` (`markHand`): where each card is at
  // hand (HAND_* bits, and bit p for the bottom of a unit that may move off pile p); the cards
  // `takers` has met (`handSeen` equal to `seenNow`).
  private readonly handStamp = new Int32Array(64);
  private readonly handWhere = new Int32Array(64);
  private readonly handSeen = new Int32Array(64);
  private readonly handStack = new Uint8Array(64);
  private handNow = 0;
  private seenNow = 0;
  // Scratch of `waitsFor` (rule 10): the card under each tableau card (valid where `underStamp`
  // is `underNow`), and the cards seen (`visited` equal to `visitNow`).
  private readonly under = new Uint8Array(64);
  private readonly underStamp = new Int32Array(64);
  // coverStamp[c] is `underNow` when a card lies on tableau card c.
  private readonly coverStamp = new Int32Array(64);
  private underNow = 0;
  private readonly visited = new Int32Array(64);
  private visitNow = 0;
  private readonly waitStack = new Uint8Array(64);
  /** The next and the previous card of each card's suit in foundation order (255: none). */
  readonly succOf = new Uint8Array(64).fill(255);
  readonly predOf = new Uint8Array(64).fill(255);
  /**
   * Every pile is always a built run (piles dealt one card each, which only grow by building and by
   * filling a space with a card or a run): the key then holds each pile as its length, its bottom
   * card and, for each card above, which of the cards that may be built on the one below it is, in
   * `choiceBits` bits (docs/algorithms.md, "The packed key"). 0 bits in rule-9 games, where only
   * one card fits on each.
   */
  readonly runKeys: boolean;
  private readonly choiceBits: number;
  /** Choices packed in one chunk of the key (`encode`): BITS_KEPT / choiceBits, or 0. */
  private readonly choicesPerChunk: number;
  /** choiceOf[c]: the place of card c among the builders of any card it may be built on. */
  private readonly choiceOf = new Uint8Array(64);
  /** Builds in suit: every card next on its foundation is safe to play there (rule 2). */
  private readonly sameSuit: boolean;
  private readonly scores = SORT_SCORES;
  private readonly needDepth: Int32Array;

  /**
   * Which move order `generate` uses in the tableau-only games: 0 is the plain score, others add a
   * fixed pseudo-random term per move (restarts of the search try other orders).
   */
  readonly variant: number;

  constructor(position: Position, variant = 0, useTwins = true, useCrosses = true) {
    this.variant = variant;
    const rules = position.rules;
    this.rules = rules;
    this.ranks = rules.ranks;
    this.piles = rules.piles;
    this.totalCards = 4 * rules.ranks;
    this.maxHeight = this.totalCards;
    this.baseRank = position.baseRank;
    this.autoReserve = autoFillsFromReserve(rules);
    this.foundationToTableau = rules.foundationToTableau;
    this.kingsOnly = rules.spaces === 'kings';
    let fill = 0;
    switch (rules.spaces) {
      case 'any':
        fill = FILL_TABLEAU | FILL_RESERVE | FILL_WASTE | FILL_FOUNDATION;
        break;
      case 'kings':
        fill = FILL_TABLEAU | FILL_RESERVE | FILL_WASTE | FILL_FOUNDATION;
        break;
      case 'reserve-or-waste':
        fill = FILL_RESERVE | FILL_WASTE;
        break;
      case 'auto-reserve-then-waste':
        fill = FILL_WASTE;
        break;
      case 'auto-reserve-then-any':
        fill = FILL_WASTE | FILL_TABLEAU;
        break;
    }
    this.fillFlags = fill;

    const R = rules.ranks;
    for (let suit = 0; suit < 4; suit++) {
      for (let o = 0; o < R; o++) this.order[makeCard(suit, rankAtOrder(rules, position.baseRank, o))] = o;
      for (let o = 1; o < R; o++) {
        const lo = makeCard(suit, rankAtOrder(rules, position.baseRank, o - 1));
        const hi = makeCard(suit, rankAtOrder(rules, position.baseRank, o));
        this.succOf[lo] = hi;
        this.predOf[hi] = lo;
      }
    }
    for (let s1 = 0; s1 < 4; s1++) {
      for (let r1 = 0; r1 < R; r1++) {
        const c = makeCard(s1, r1);
        for (let s2 = 0; s2 < 4; s2++) {
          for (let r2 = 0; r2 < R; r2++) {
            const t = makeCard(s2, r2);
            const oc = this.order[c]!;
            const ot = this.order[t]!;
            const rankFits = rules.wrap ? (oc + 1) % R === ot : oc + 1 === ot;
            let suitFits = true;
            if (rules.build === 'alternate-colors') suitFits = cardColour(c) !== cardColour(t);
            else if (rules.build === 'same-suit') suitFits = s1 === s2;
            this.fits[c * 64 + t] = rankFits && suitFits && c !== t ? 1 : 0;
            if (this.fits[c * 64 + t] === 1) {
              let i = t * 4;
              while (this.builders[i] !== 255) i++;
              this.builders[i] = c;
            }
          }
        }
      }
    }

    this.pile = new Uint8Array(this.piles * this.maxHeight);
    this.len = new Int32Array(this.piles);
    this.keyPile = new Uint8Array(this.piles * this.maxHeight);
    this.keyLen = new Int32Array(this.piles);
    this.pileOrder = new Int32Array(this.piles);
    this.needDepth = new Int32Array(this.piles);
    position.tableau.forEach((cards, p) => {
      cards.forEach((c, i) => (this.pile[p * this.maxHeight + i] = c));
      this.len[p] = cards.length;
    });
    for (let s = 0; s < 4; s++) this.found[s] = position.foundations[s]!;
    this.reserve = Uint8Array.from(position.reserve);
    this.resCount = position.reserve.length;
    const redealLimit = rules.redeals === 'unlimited' ? -1 : rules.redeals;
    this.talon = new Talon(position.waste, position.stock, rules.draw, redealLimit, position.redealsUsed);
    this.tableauOnly = this.talon.length === 0 && this.resCount === 0 && !this.foundationToTableau;
    // A later run of a restarting search (variant > 0) always orders its moves, with its own jitter.
    this.ordered = this.tableauOnly || this.foundationToTableau || variant > 0;
    const anySuit = rules.build === 'any-suit';
    for (let c = 0; c < 52; c++) this.groupOf[c] = anySuit ? cardRank(c) : cardRank(c) * 2 + cardColour(c);
    this.groupCount = anySuit ? 13 : 26;
    this.twins = useTwins && Engine.twinsApply(rules);
    this.slotGroups = this.twins && rules.build === 'any-suit';
    this.sameSuit = rules.build === 'same-suit';
    this.chainBuilds =
      rules.build === 'same-suit' && rules.move === 'whole-pile' && !rules.wrap && !this.autoReserve && !this.foundationToTableau;
    this.homeViaPile = this.talon.draw > 1 && !this.chainBuilds;
    // In suit a build only ever puts a lower card on a higher one, which buries nothing.
    this.noBurial = rules.move === 'whole-pile' && !this.foundationToTableau && !this.sameSuit;
    // A single card that could go from a pile into a space could come from the talon instead. Rule 9
    // games are left out: there dealing stops at every card with a move (rules 3 and 9), which keeps
    // all its moves, so the rule would only cost its look-ups.
    this.talonAtHand =
      this.talon.length > 0 && this.talon.draw === 1 && redealLimit < 0 && !this.foundationToTableau && !this.chainBuilds &&
      ((fill & FILL_TABLEAU) === 0 || (fill & FILL_WASTE) !== 0);
    // A card's place among the builders must not depend on the card it goes on (true of every
    // rule here: builders are listed in suit order, and the suits that fit do not depend on it).
    let most = 0;
    let consistent = true;
    this.choiceOf.fill(255);
    for (let t = 0; t < 64; t++) {
      let k = 0;
      for (; k < 4 && this.builders[t * 4 + k] !== 255; k++) {
        const c = this.builders[t * 4 + k]!;
        if (this.choiceOf[c] !== 255 && this.choiceOf[c] !== k) consistent = false;
        this.choiceOf[c] = k;
      }
      if (k > most) most = k;
    }
    this.choiceBits = most <= 1 ? 0 : most === 2 ? 1 : 2;
    this.choicesPerChunk = this.choiceBits > 0 ? Math.floor(BITS_KEPT / this.choiceBits) : 0;
    this.runKeys =
      consistent &&
      rules.pileCards !== 'all' &&
      rules.pileCards <= 1 &&
      position.tableau.every((cards) => cards.every((c, i) => i === 0 || this.fits[c * 64 + cards[i - 1]!] === 1));
    if (rules.build === 'alternate-colors') for (let c = 0; c < 52; c++) this.twinOf[c] = makeCard(3 - cardSuit(c), cardRank(c));
    this.twinsInRuns = this.twins && this.runKeys && rules.build === 'alternate-colors';
    this.crosses = useCrosses && this.twinsInRuns && !rules.wrap;
    this.keepsBits = this.runKeys && this.choiceBits > 0;
    if (this.keepsBits) this.pileBits = new Int32Array(this.piles);
    this.placeAll();
  }

  /** The talon's dominance order among the states that share a key (`Talon.passRank`). */
  passRank(): number {
    return this.talon.passRank();
  }

  /** The table lane of a state of rank `rank` (`Talon.laneOf`). */
  laneOf(rank: number): number {
    return this.talon.laneOf(rank);
  }

  isWon(): boolean {
    return this.found[0]! + this.found[1]! + this.found[2]! + this.found[3]! === this.totalCards;
  }

  top(p: number): number {
    return this.pile[p * this.maxHeight + this.len[p]! - 1]!;
  }

  /**
   * With draw 1, whether dealing stops at talon card c (`Talon.list`): it is safe to play to its
   * foundation (rule 3), or, in rule-9 games, it fits on a pile top (`markTops` must be current).
   */
  cutsDealing(c: number): boolean {
    if (this.goesHomeSafely(c)) return true;
    return this.chainBuilds && this.pilesTaking(c) !== 0;
  }

  /**
   * Whether moving `card` (next on its foundation) home is proved safe, so forced (rule 2 of
   * docs/algorithms.md): no card that could ever be built on it is still in play.
   */
  isSafeToFoundation(card: number): boolean {
    if (this.foundationToTableau) return false;
    const o = this.order[card]!;
    // Round the corner a base card takes its suit's last cards, which are not home; without wrap
    // nothing builds on it. In suit, what builds on any other card is the one below it, already home.
    if (o === 0) return !this.rules.wrap;
    if (this.sameSuit) return true;
    const build = this.rules.build;
    const f = this.found;
    // Every card of order o-2 home: each card that could build on c is itself next on its
    // foundation and nothing can build on it (docs/algorithms.md, rule 2, second case). With wrap
    // only from order 2: the cards that build on a base card are of the last order, not home.
    if ((o >= 2 || !this.rules.wrap) && f[0]! >= o - 1 && f[1]! >= o - 1 && f[2]! >= o - 1 && f[3]! >= o - 1) return true;
    if (build === 'any-suit') return f[0]! >= o && f[1]! >= o && f[2]! >= o && f[3]! >= o;
    // Alternating colours: both suits of the other colour must already hold order o-1.
    return cardColour(card) === 0 ? f[1]! >= o && f[2]! >= o : f[0]! >= o && f[3]! >= o;
  }

  private toFoundation(card: number): boolean {
    return this.found[SUIT_OF[card]!] === this.order[card];
  }

  /** Whether `card` may go to its foundation now and doing so is proved safe (rule 2). */
  private goesHomeSafely(card: number): boolean {
    if (!this.toFoundation(card)) return false;
    if (this.isSafeToFoundation(card)) return true;
    return this.noBurial && this.buildersStuck(card);
  }

  /**
   * Under `noBurial` (rule 2, third case): whether no card that may be built on `card` can ever be
   * built there: each is stuck (`builderStuck`) or could go home instead (`deadBuilder`).
   * `markWaits` must be current.
   */
  private buildersStuck(card: number): boolean {
    for (let i = card * 4, end = i + 4; i < end; i++) {
      const x = this.builders[i]!;
      if (x === 255) break;
      if (!this.builderStuck(x, card) && !this.deadBuilder(x)) return false;
    }
    return true;
  }

  /**
   * Under `noBurial`: whether x can never be built on `card`: it is home, or lies on another card in
   * a pile (under whole-pile moves it leaves its pile only for its foundation), or `card` must go
   * home before it (`waitsFor`: built there it would wait for itself).
   */
  private builderStuck(x: number, card: number): boolean {
    return this.found[SUIT_OF[x]!]! > this.order[x]! || this.underStamp[x] === this.underNow || this.waitsFor(card, x);
  }

  /**
   * Under `noBurial` (rule 2, third case): whether builder x, if it is ever built on the card, can
   * go home instead: it is next on its foundation, nothing lies on it, and every card that could be
   * built on it is stuck.
   */
  private deadBuilder(x: number): boolean {
    if (this.found[SUIT_OF[x]!]! !== this.order[x]! || this.coverStamp[x] === this.underNow) return false;
    for (let i = x * 4, end = i + 4; i < end; i++) {
      const y = this.builders[i]!;
      if (y === 255) break;
      if (!this.builderStuck(y, x)) return false;
    }
    return true;
  }

  /** Length of the movable unit sizes at the top of pile p: the longest run that may move. */
  private maxUnit(p: number): number {
    const n = this.len[p]!;
    if (n === 0) return 0;
    const move = this.rules.move;
    if (move === 'single') return 1;
    // Where every pile is a built run (`runKeys`), the longest unit that may move is the pile.
    if (this.runKeys) return n;
    const base = p * this.maxHeight;
    let k = 1;
    while (k < n && this.fits[this.pile[base + n - k]! * 64 + this.pile[base + n - k - 1]!] === 1) k++;
    if (move === 'whole-pile') return k === n ? n : 0;
    return k;
  }

  /**
   * The proved-safe move of the current state, with its FORCED_BIT, or 0 when there is none: the
   * only move `generate` gives when there is one. Foundation moves (rule 2: tableau tops, the reserve
   * top, and with draw 1 the waste top), then in rule-9 games a forced build. Of several safe tableau
   * tops, the lowest card code, so that the move does not depend on how the piles are numbered (the
   * best-first search reloads states with their piles in key order). Needs no talon list: the waste
   * top is the only talon card it looks at.
   */
  private forcedMove(): number {
    const P = this.piles;
    // Rule 9 asks where cards fit before anything else; other games only for the reserve and waste.
    if (this.chainBuilds) this.markTops();
    let forcedPile = -1;
    let forcedCard = 64;
    for (let p = 0; p < P; p++) {
      if (this.len[p] === 0) continue;
      const c = this.top(p);
      if (c < forcedCard && this.goesHomeSafely(c)) {
        forcedPile = p;
        forcedCard = c;
      }
    }
    if (forcedPile >= 0) return MT_T2F | (forcedPile << SRC_SHIFT) | FORCED_BIT;
    if (this.resCount > 0) {
      const c = this.reserve[this.resCount - 1]!;
      if (this.goesHomeSafely(c)) return MT_R2F | FORCED_BIT;
    }
    const wasteTop = this.talon.draw === 1 && this.talon.length > 0 ? this.talon.wasteTopIndex(this.talon.split) : -1;
    if (wasteTop >= 0) {
      const c = this.talon.cards[wasteTop]!;
      if (this.goesHomeSafely(c)) return MT_W2F | (wasteTop << TALON_SHIFT) | FORCED_BIT;
    }
    if (this.chainBuilds) {
      const build = this.forcedBuild(wasteTop);
      if (build !== 0) return build | FORCED_BIT;
    }
    return 0;
  }

  /**
   * Writes the moves of the current state into `out` from `at`, most promising first, and returns
   * the new end. When a proved-safe foundation move exists it is the only move written (forced).
   */
  private generateMoves(out: Int32Array, at: number): number {
    const P = this.piles;
    const H = this.maxHeight;
    let n = at;
    // Rule 10's waits, and rule 2's third case (in forcedMove), read the cards under tableau cards.
    if (this.noBurial) this.markWaits();
    const forced = this.forcedMove();
    if (forced !== 0) {
      out[n++] = forced;
      return n;
    }
    // Dealing never deals past a card that is safe to play to its foundation (see docs/algorithms.md,
    // "no dealing past a safe card"), nor in rule-9 games past one that fits on a pile top (its
    // target stays a pile top until it comes): with draw 1 the list ends at the first such card.
    this.talon.list(this.talon.draw === 1 ? this : null);
    // Rule 12: the waste cards that the state at a split proved lost reaches lead where it leads.
    // Across classes only the cards of a pass from the start are reached from every split.
    if (this.talon.splitDominance && this.talon.candCount > 0) {
      if (this.lostRank >= 0) this.talon.dropCandidatesOf(this.lostRank);
      else if (this.otherClassLost) this.talon.dropFirstPassCards();
    }
    if (this.talonAtHand && this.talon.candCount > 0) this.markHand();
    // Rule 9 games marked the pile tops in forcedMove; the others mark them below, if needed.
    const topsMarked = this.chainBuilds;

    // Only the reserve top and the waste cards are looked up by the pile tops they fit.
    if (!topsMarked && (this.resCount > 0 || this.talon.candCount > 0)) this.markTops();

    // Foundation moves.
    for (let p = 0; p < P; p++) if (this.len[p] > 0 && this.toFoundation(this.top(p))) out[n++] = MT_T2F | (p << SRC_SHIFT);
    if (this.resCount > 0 && this.toFoundation(this.reserve[this.resCount - 1]!)) out[n++] = MT_R2F;
    // Under pass dominance the waste cards go in dealing order, foundation moves among them (below).
    const talon = this.talon;
    if (!talon.passDominance) {
      const { candIdx, candRedeal, cards } = talon;
      for (let i = 0, count = talon.candCount; i < count; i++) {
        const idx = candIdx[i]!;
        const c = cards[idx]!;
        // Rule 11: a waste card that may also be built on a pile goes home from there. (Rule 10
        // never stops that build: every lower card of the suit of a card that may go home is home.)
        if (this.toFoundation(c) && !(this.homeViaPile && this.pilesTaking(c) !== 0)) {
          // Rule 15: home from the talon only just before the next card of the suit follows.
          if (this.talonAtHand && !this.wasteHomeNeeded(c)) continue;
          out[n++] = MT_W2F | (idx << TALON_SHIFT) | (candRedeal[i] ? REDEAL_BIT : 0);
        }
      }
    }

    let firstEmpty = -1;
    for (let p = 0; p < P; p++) {
      if (this.len[p] === 0) {
        firstEmpty = p;
        break;
      }
    }
    const fill = this.fillFlags;
    const autoBlocks = this.autoReserve && this.resCount > 0;
    const spaceOpen = firstEmpty >= 0 && !autoBlocks;

    // Reserve top to the tableau.
    if (this.resCount > 0) {
      const c = this.reserve[this.resCount - 1]!;
      for (let on = this.notBurying(c, this.pilesTaking(c)); on !== 0; on &= on - 1) out[n++] = MT_R2T | ((31 - Math.clz32(on & -on)) << DST_SHIFT);
      if (spaceOpen && (fill & FILL_RESERVE) !== 0 && this.spaceTakes(c)) out[n++] = MT_R2T | (firstEmpty << DST_SHIFT);
    }

    // Tableau to tableau. In rule-9 games every such move is a forced build (a whole pile onto the
    // one top its bottom card fits, found by forcedBuild), so a state that gets here has none.
    if (!this.chainBuilds) n = this.tableauMoves(out, n, spaceOpen ? firstEmpty : -1);

    // Waste cards (reached by dealing) to the tableau.
    n = this.wasteMoves(out, n, spaceOpen ? firstEmpty : -1);

    // Foundation tops back to the tableau.
    if (this.foundationToTableau) {
      for (let s = 0; s < 4; s++) {
        const f = this.found[s]!;
        if (f === 0) continue;
        const c = makeCard(s, rankAtOrder(this.rules, this.baseRank, f - 1));
        for (let d = 0; d < P; d++) {
          if (this.len[d] > 0 && this.fits[c * 64 + this.top(d)] === 1) out[n++] = MT_F2T | (s << SUIT_SHIFT) | (d << DST_SHIFT);
        }
        if (spaceOpen && (fill & FILL_FOUNDATION) !== 0 && this.spaceTakes(c)) {
          out[n++] = MT_F2T | (s << SUIT_SHIFT) | (firstEmpty << DST_SHIFT);
        }
      }
    }
    if (this.ordered) this.sortMoves(out, at, n);
    return n;
  }

  /**
   * Writes from `at` the tableau-to-tableau moves, and those into `space` (the first empty pile, or
   * -1), and returns the new end. A run's orders rise by one from its top card down, so the one
   * unit that can land on a given top is found by arithmetic, then checked for suit/colour in `fits`.
   */
  private tableauMoves(out: Int32Array, at: number, space: number): number {
    const P = this.piles;
    const H = this.maxHeight;
    let n = at;
    const intoSpace = space >= 0 && (this.fillFlags & FILL_TABLEAU) !== 0;
    const R = this.ranks;
    const wrap = this.rules.wrap;
    const ordOf = this.order;
    if (this.runKeys && this.rules.move === 'whole-pile') return this.wholePileMoves(out, at);
    for (let s = 0; s < P; s++) {
      const ls = this.len[s]!;
      if (ls === 0) continue;
      const unit = this.maxUnit(s);
      if (unit === 0) continue;
      const sb = s * H;
      const minK = this.rules.move === 'whole-pile' ? ls : 1;
      const topOrder = ordOf[this.pile[sb + ls - 1]!]!;
      for (let d = 0; d < P; d++) {
        if (d === s || this.len[d] === 0) continue;
        const t = this.pile[d * H + this.len[d]! - 1]!;
        let k = ordOf[t]! - topOrder;
        if (!wrap) {
          if (k >= minK && k <= unit && this.fits[this.pile[sb + ls - k]! * 64 + t] === 1 && !(this.noBurial && this.buries(s, d))) {
            // A run from one twin onto the other only swaps the pair: the same state (see "twins").
            if (this.twins && k < ls && this.isSwap(t, this.pile[sb + ls - k - 1]!, this.pile[sb + ls - k]!)) continue;
            out[n++] = MT_T2T | (s << SRC_SHIFT) | (d << DST_SHIFT) | (k << COUNT_SHIFT);
          }
          continue;
        }
        // Round the corner a run can be longer than the ranks, so every R-th card down fits too.
        for (k = ((k - 1 + R) % R) + 1; k <= unit; k += R) {
          if (k >= minK && this.fits[this.pile[sb + ls - k]! * 64 + t] === 1 && !(this.noBurial && this.buries(s, d))) {
            out[n++] = MT_T2T | (s << SRC_SHIFT) | (d << DST_SHIFT) | (k << COUNT_SHIFT);
          }
        }
      }
      // Into a space: never a whole pile (that only renames the pile).
      if (intoSpace) {
        for (let k = minK; k <= unit && k < ls; k++) {
          if (this.spaceTakes(this.pile[sb + ls - k]!)) {
            out[n++] = MT_T2T | (s << SRC_SHIFT) | (space << DST_SHIFT) | (k << COUNT_SHIFT);
          }
        }
      }
    }
    return n;
  }

  /**
   * `tableauMoves` where every pile is a built run and only whole piles move: each pile whose bottom
   * card fits on another pile's top, unless that would make a card wait for itself (rule 10). (A
   * whole pile never goes into a space: that only renames the pile.)
   */
  private wholePileMoves(out: Int32Array, at: number): number {
    const P = this.piles;
    const H = this.maxHeight;
    let n = at;
    for (let s = 0; s < P; s++) {
      const ls = this.len[s]!;
      if (ls === 0) continue;
      const b = this.pile[s * H]! * 64;
      for (let d = 0; d < P; d++) {
        if (d === s || this.len[d] === 0) continue;
        if (this.fits[b + this.pile[d * H + this.len[d]! - 1]!] === 1 && !(this.noBurial && this.buries(s, d))) {
          out[n++] = MT_T2T | (s << SRC_SHIFT) | (d << DST_SHIFT) | (ls << COUNT_SHIFT);
        }
      }
    }
    return n;
  }

  /**
   * Whether carrying the unit whose bottom card is `bottom`, lying on card `under`, onto top `t`
   * only turns a twin pair or rearranges a slot group: the same class (see "twins").
   */
  private isSwap(t: number, under: number, bottom: number): boolean {
    if (this.pairStamp[t] === this.pairsAt && this.partner[t] === under) return true;
    const g = this.groupOf[t]!;
    return this.slotStamp[g] === this.pairsAt && this.groupOf[under] === g && this.fits[bottom * 64 + under] === 1;
  }

  /**
   * In `chainBuilds` games (see there): a build that is proved safe, or 0. Of several, a whole pile
   * onto the pile its bottom card fits (the lowest such bottom card, so that the choice does not
   * depend on pile numbers), else the reserve top onto the pile it fits, else the waste top (draw 1)
   * onto the pile it fits. Rule 9 of docs/algorithms.md argues each.
   */
  private forcedBuild(wasteTop: number): number {
    const P = this.piles;
    const H = this.maxHeight;
    let best = 0;
    let bestCard = 64;
    for (let s = 0; s < P; s++) {
      const ls = this.len[s]!;
      if (ls === 0) continue;
      const bottom = this.pile[s * H]!;
      if (bottom >= bestCard) continue;
      const d = this.pileTaking(bottom, s);
      if (d >= 0 && this.maxUnit(s) === ls) {
        best = MT_T2T | (s << SRC_SHIFT) | (d << DST_SHIFT) | (ls << COUNT_SHIFT);
        bestCard = bottom;
      }
    }
    if (best !== 0) return best;
    if (this.resCount > 0) {
      const d = this.pileTaking(this.reserve[this.resCount - 1]!, -1);
      if (d >= 0) return MT_R2T | (d << DST_SHIFT);
    }
    if (wasteTop >= 0) {
      const d = this.pileTaking(this.talon.cards[wasteTop]!, -1);
      if (d >= 0) return MT_W2T | (wasteTop << TALON_SHIFT) | (d << DST_SHIFT);
    }
    return 0;
  }

  /**
   * The piles of `on` (a bit per pile) minus, under `noBurial`, those whose top card must go home
   * before card c can: put there, c would wait for itself (rule 10). That is when the top must go
   * home before c's predecessor in its suit (c itself is in no pile, so nothing else leads to it).
   * `markWaits` must be current.
   */
  private notBurying(c: number, on: number): number {
    if (!this.noBurial) return on;
    const o = this.order[c]!;
    // A base card, or one whose predecessor is home, waits for nothing in the tableau.
    if (o === 0 || this.found[SUIT_OF[c]!]! >= o) return on;
    const pred = this.predOf[c]!;
    for (let m = on; m !== 0; m &= m - 1) {
      const d = 31 - Math.clz32(m & -m);
      if (this.waitsFor(this.top(d), pred)) on &= ~(1 << d);
    }
    return on;
  }

  /** Under `noBurial`: whether whole pile s put onto pile d would wait for itself (rule 10). */
  private buries(s: number, d: number): boolean {
    return this.waitsFor(this.top(d), this.pile[s * this.maxHeight]!);
  }

  /** Under `noBurial`, once per `generate`: notes the card under each tableau card for `waitsFor`. */
  private markWaits(): void {
    if (++this.underNow === 0x7fffffff) {
      this.underStamp.fill(0);
      this.coverStamp.fill(0);
      this.underNow = 1;
    }
    const now = this.underNow;
    const H = this.maxHeight;
    for (let p = 0; p < this.piles; p++) {
      const b = p * H;
      for (let i = 1, l = this.len[p]!; i < l; i++) {
        const c = this.pile[b + i]!;
        const u = this.pile[b + i - 1]!;
        this.under[c] = u;
        this.underStamp[c] = now;
        this.coverStamp[u] = now;
      }
    }
  }

  /**
   * Under `noBurial` (rule 10): whether card x must go home before card y can. A card lying on
   * another in a pile goes home before it (whole piles move, so a card is uncovered only when
   * every card above it has gone home), and a card goes home before the next card of its suit;
   * this follows both, step by step, from x. `markWaits` must be current.
   */
  private waitsFor(x: number, y: number): boolean {
    if (++this.visitNow === 0x7fffffff) {
      this.visited.fill(0);
      this.visitNow = 1;
    }
    const now = this.visitNow;
    const { visited, waitStack, succOf, under, underStamp } = this;
    const underNow = this.underNow;
    let n = 0;
    waitStack[n++] = x;
    visited[x] = now;
    while (n > 0) {
      const c = waitStack[--n]!;
      if (c === y) return true;
      const next = succOf[c]!;
      if (next !== 255 && visited[next] !== now) {
        visited[next] = now;
        waitStack[n++] = next;
      }
      if (underStamp[c] === underNow) {
        const u = under[c]!;
        if (visited[u] !== now) {
          visited[u] = now;
          waitStack[n++] = u;
        }
      }
    }
    return false;
  }

  /** The lowest pile other than `except` whose top card `c` may be built on (from `markTops`), or -1. */
  private pileTaking(c: number, except: number): number {
    const on = this.pilesTaking(c) & ~(1 << except);
    return on === 0 ? -1 : 31 - Math.clz32(on & -on);
  }

  /**
   * Writes the moves of the waste cards that dealing can reach, in dealing order, to the tableau
   * (and `space`, the first empty pile, or -1), and under pass dominance to the foundations too.
   */
  private wasteMoves(out: Int32Array, at: number, space: number): number {
    let n = at;
    const intoSpace = space >= 0 && (this.fillFlags & FILL_WASTE) !== 0;
    const talon = this.talon;
    const { candIdx, candRedeal, cards } = talon;
    const passDominance = talon.passDominance;
    for (let i = 0, count = talon.candCount; i < count; i++) {
      const idx = candIdx[i]!;
      const c = cards[idx]!;
      const extra = (idx << TALON_SHIFT) | (candRedeal[i] ? REDEAL_BIT : 0);
      if (passDominance && this.toFoundation(c)) out[n++] = MT_W2F | extra;
      let piles = this.notBurying(c, this.pilesTaking(c));
      // Rule 15: onto a pile only where a card to build on it is at hand.
      if (this.talonAtHand && piles !== 0) piles = this.wastePlayNeeded(c, piles);
      for (let on = piles; on !== 0; on &= on - 1) out[n++] = MT_W2T | extra | ((31 - Math.clz32(on & -on)) << DST_SHIFT);
      if (intoSpace && this.spaceTakes(c)) out[n++] = MT_W2T | extra | (space << DST_SHIFT);
    }
    return n;
  }

  /**
   * Rule 15: notes where each card is at hand (`handWhere`): the live talon cards (HAND_TALON), the
   * reserve top (HAND_RESERVE), the pile tops (HAND_TOP) and the bottom card of every unit that may
   * move off pile p (bit p). With twins a card's pile may differ within its class, so a unit's
   * bottom is noted as in the tableau (HAND_TABLEAU), and the twin of a pile top as a top too (a
   * swap uncovers it when it lies in the tableau).
   */
  private markHand(): void {
    if (++this.handNow === 0x7fffffff) {
      this.handStamp.fill(0);
      this.handNow = 1;
    }
    const talon = this.talon;
    for (let i = 0; i < talon.length; i++) if (talon.removed[i] === 0) this.noteHand(talon.cards[i]!, HAND_TALON);
    if (this.resCount > 0) this.noteHand(this.reserve[this.resCount - 1]!, HAND_RESERVE);
    const H = this.maxHeight;
    for (let p = 0; p < this.piles; p++) {
      const l = this.len[p]!;
      if (l === 0) continue;
      const top = this.pile[p * H + l - 1]!;
      this.noteHand(top, HAND_TOP);
      // In a twin class a swap or a carry can make any card of the top's twins or group a top.
      if (this.slotGroups) {
        for (let s = 0; s < 4; s++) this.noteHand(makeCard(s, cardRank(top)), HAND_TOP);
      } else if (this.twins && this.twinOf[top] !== 255) this.noteHand(this.twinOf[top]!, HAND_TOP);
      const unit = this.maxUnit(p);
      for (let k = this.rules.move === 'whole-pile' ? l : 1; k <= unit; k++) this.noteHand(this.pile[p * H + l - k]!, this.twins ? HAND_TABLEAU : 1 << p);
    }
  }

  /** Rule 15: adds `bits` to where card c is at hand (`markHand`). */
  private noteHand(c: number, bits: number): void {
    if (this.handStamp[c] !== this.handNow) {
      this.handStamp[c] = this.handNow;
      this.handWhere[c] = 0;
    }
    this.handWhere[c] |= bits;
  }

  /** Rule 15: `handWhere` of card c, 0 where `markHand` did not note it. */
  private hand(c: number): number {
    return this.handStamp[c] === this.handNow ? this.handWhere[c]! : 0;
  }

  /**
   * Rule 15: where the cards that could be built on talon card c, at once or at the end of a chain
   * of talon cards each built on the one before, are at hand outside the talon: HAND_RESERVE,
   * HAND_TABLEAU and pile bits.
   */
  private takers(c: number): number {
    if (++this.seenNow === 0x7fffffff) {
      this.handSeen.fill(0);
      this.seenNow = 1;
    }
    const seen = this.seenNow;
    const { handSeen, handStack, builders } = this;
    let mask = 0;
    let n = 0;
    handStack[n++] = c;
    handSeen[c] = seen;
    while (n > 0) {
      const x = handStack[--n]!;
      for (let i = x * 4, end = i + 4; i < end; i++) {
        const y = builders[i]!;
        if (y === 255) break;
        const where = this.hand(y);
        if ((where & HAND_TALON) === 0) mask |= where & ~HAND_TOP;
        else if (handSeen[y] !== seen) {
          handSeen[y] = seen;
          handStack[n++] = y;
        }
      }
    }
    return mask;
  }

  /**
   * Rule 15: of `piles` (a bit per pile), those that talon card c may usefully be played onto: some
   * card that could be built on it, directly or at the end of a chain of talon cards, is at hand
   * outside that pile. A card that ends dealing (rules 3 and 9) keeps all its moves.
   */
  private wastePlayNeeded(c: number, piles: number): number {
    if (this.cutsDealing(c)) return piles;
    const mask = this.takers(c);
    if ((mask & ~PILE_BITS) !== 0) return piles;
    let keep = 0;
    for (let on = piles; on !== 0; on &= on - 1) {
      const d = on & -on;
      if ((mask & ~d) !== 0) keep |= d;
    }
    return keep;
  }

  /**
   * Rule 15: whether talon card c (next on its foundation) may usefully go home now: the cards of
   * its suit after it, up to the first that is not in the talon, can follow it home at once (that
   * card is a pile top or the reserve top, or the suit ends in the talon). A card that ends dealing
   * (rules 3 and 9) may always go.
   */
  private wasteHomeNeeded(c: number): boolean {
    if (this.cutsDealing(c)) return true;
    for (let s = this.succOf[c]!; s !== 255; s = this.succOf[s]!) {
      const where = this.hand(s);
      if ((where & HAND_TALON) === 0) return (where & (HAND_TOP | HAND_RESERVE)) !== 0;
    }
    return true;
  }

  /** Notes, for every card, on which pile tops it may be built; `pilesTaking` reads it. */
  private markTops(): void {
    const stamp = ++this.tops;
    const H = this.maxHeight;
    for (let d = 0; d < this.piles; d++) {
      const l = this.len[d]!;
      if (l === 0) continue;
      const t = this.pile[d * H + l - 1]!;
      for (let i = t * 4; i < t * 4 + 4; i++) {
        const c = this.builders[i]!;
        if (c === 255) break;
        if (this.onStamp[c] !== stamp) {
          this.onStamp[c] = stamp;
          this.onPiles[c] = 0;
        }
        this.onPiles[c] |= 1 << d;
      }
    }
  }

  /** The piles (bit d for pile d) whose top card c may be built on, as `markTops` last saw them. */
  private pilesTaking(c: number): number {
    return this.onStamp[c] === this.tops ? this.onPiles[c]! : 0;
  }

  /**
   * Orders the moves from `at` to `n` most promising first, by a score of how much each digs out
   * the cards the foundations need next (plus, in another `variant`, a fixed pseudo-random term
   * per move). Only the order changes, never the set of moves, so this is a heuristic with no
   * bearing on soundness; it is a function of the working state alone (and the sort is stable), so
   * the solver can generate a list again after undo and find the same order.
   */
  private sortMoves(out: Int32Array, at: number, n: number): void {
    const P = this.piles;
    const H = this.maxHeight;
    const pile = this.pile;
    const need = this.needDepth;
    const ord = this.order;
    const found = this.found;
    const variant = this.variant;
    // The tableau moves' finer scores serve the games that restart afresh (the tableau-only games and
    // canfield-relaxed). Where runs keep their proofs (canfield-sequences, Hoyle Canfield, variant
    // > 0) the kind of move and the jitter order as well, for less (docs/algorithms.md, "Restarts
    // that keep their proofs").
    const fine = this.tableauOnly || this.foundationToTableau;
    // needDepth[p]: cards above the highest card in pile p that a foundation takes next.
    for (let p = 0; fine && p < P; p++) {
      const b = p * H;
      const l = this.len[p]!;
      let dpt = 1 << 20;
      for (let i = l - 1; i >= 0; i--) {
        const c = pile[b + i]!;
        if (found[cardSuit(c)] === ord[c]) {
          dpt = l - 1 - i;
          break;
        }
      }
      need[p] = dpt;
    }
    const sc = this.scores;
    for (let i = at; i < n; i++) {
      const m = out[i]!;
      let score = 0;
      const type = moveType(m);
      if (type === MT_T2F || type === MT_R2F) score = 1000;
      // canfield-relaxed: digging out the reserve first; a card back from its foundation last.
      else if (type === MT_W2F) score = 500;
      else if (type === MT_R2T) score = 300;
      else if (type === MT_W2T) score = -50;
      else if (type === MT_F2T) score = -300;
      else if (type === MT_T2T && fine) {
        const s = moveSrc(m);
        const d = moveDst(m);
        const k = moveCount(m);
        const rest = this.len[s]! - k;
        if (rest === 0) score += 60;
        else {
          const e = pile[s * H + rest - 1]!;
          if (found[cardSuit(e)] === ord[e]) score += 200;
          else if (this.fits[pile[s * H + rest]! * 64 + e] === 1) score -= 30;
        }
        const ns = need[s]!;
        if (ns < 1 << 20 && ns >= k) score += 50 - 3 * (ns - k);
        if (this.len[d] === 0) score -= 20;
        else if (need[d]! < 1 << 20) score -= 10 + Math.max(0, 10 - need[d]!);
      }
      if (variant !== 0) score += jitter(m, variant);
      sc[i - at] = score;
    }
    // Insertion sort, stable, descending by score.
    for (let i = at + 1; i < n; i++) {
      const m = out[i]!;
      const v = sc[i - at]!;
      let j = i - 1;
      while (j >= at && sc[j - at]! < v) {
        out[j + 1] = out[j]!;
        sc[j + 1 - at] = sc[j - at]!;
        j--;
      }
      out[j + 1] = m;
      sc[j + 1 - at] = v;
    }
  }

  /** Whether card c (the bottom of what moves) may go into a space: under `kings`, only the top rank. */
  private spaceTakes(c: number): boolean {
    return !this.kingsOnly || this.order[c] === this.ranks - 1;
  }

  // ---- twins -------------------------------------------------------------------------------------
  // Cards of one group (a rank and colour under alternating colours, a rank in any suit) fit on the
  // same cards and take the same cards. When a group's free cards (pile tops, and cards under a run
  // built on them) are exactly two, one a pile top and one under a run in another pile, moving that
  // run onto the top card is a legal move and so is moving it back: the two states reach each
  // other in one move each way, so they are won or lost together. Such a pair is "swappable", and
  // the swappable pairs of a state are independent: swapping one changes no other pair's standing
  // (docs/algorithms.md, rule 7). So the search keeps every state in one form, the run on the lower
  // card of each pair (`canonicalize`, after every move), never generates a swap, and adds the
  // moves that turning one pair the other way ("flipping" it, the move's flip field) brings to the
  // class (`mirror`).

  /** Whether this game swaps twins: alternating colours or any suit, runs move, no wrap. */
  readonly twins: boolean;
  /**
   * Each card's group: the cards that fit on the same cards and take the same cards (one rank and
   * colour under alternating colours, one rank in any suit). A pair is a group with exactly two
   * free cards, one a pile top and one under a run built on it.
   */
  private readonly groupOf = new Uint8Array(64);
  private readonly groupExposed = new Int32Array(64);
  private readonly groupCovered = new Int32Array(64);
  /** Where (pile * maxHeight + index) `findPairs` met each group's first four tops and covered cards. */
  private readonly groupTopAt = new Int32Array(64 * 4);
  /** The other card of a card's group when a group is two twins (alternating colours), else 255. */
  private readonly twinOf = new Uint8Array(64).fill(255);
  /**
   * Twins in games whose piles are always built runs, groups of two: `findPairsInRuns`. There every
   * change to the piles keeps `cardPile` and `cardIndex` of every card up to date (-1: not in the
   * tableau), so pairs and crosses are read off without a pass over the tableau.
   */
  private readonly twinsInRuns: boolean;
  /** Where `twinsInRuns`: the cards in the tableau, as a 64-bit set (cards 0-31, 32-63). */
  private tabLo = 0;
  private tabHi = 0;
  /** Whether the moves keep `pileBits` (games with run keys and choices). */
  private readonly keepsBits: boolean;
  /**
   * Each pile's choices (see `choiceOf`) as the key packs them: the card at index i (from 1) in
   * bits (i - 1) * choiceBits on, for the cards that fit in the low BITS_KEPT bits. Without wrap a
   * run (at most 13 cards) always fits; a longer pile (round the corner) is read card by card.
   */
  private pileBits = new Int32Array(0);
  /**
   * Crossed twins (canfield-sequences; docs/algorithms.md, rule 7, "crossed twins"): when both twins
   * of a group are covered, the runs on them are kept in one order, lower card on lower card.
   */
  readonly crosses: boolean;
  private readonly crossScratch = new Uint8Array(64);
  private readonly groupCoveredAt = new Int32Array(64 * 4);
  /** Groups are 0 .. groupCount-1. */
  private readonly groupCount: number;
  /** Whether groups can have three or more free cards (any suit): see "slot groups" below. */
  private readonly slotGroups: boolean;
  /** Groups kept in their one form as slot groups, valid where equal to `pairsAt`. */
  private readonly slotStamp = new Int32Array(64);
  /** Pairs 0 .. realPairs-1 of the list are twin pairs; the rest stand for slot groups' covered cards. */
  private realPairs = 0;
  /** Per slot group g, from g * 4: its free cards (tops first, then the covered ones). */
  private readonly slotFree = new Int32Array(64 * 4);
  /** Per slot group g, from g * 4: the cards on its covered cards (the bottoms of their runs). */
  private readonly slotKids = new Int32Array(64 * 4);
  /** The other card of a card's pair, valid where `pairStamp` is current. */
  private readonly partner = new Int32Array(64);
  // The swappable pairs of the state as `findPairs` last saw it: the twin on top (exposed) and the
  // one under a run (covered), in the order of the pairs' lower cards, at most MAX_FLIP_PAIRS.
  private readonly pairExposed = new Int32Array(MAX_FLIP_PAIRS);
  private readonly pairCovered = new Int32Array(MAX_FLIP_PAIRS);
  private pairCount = 0;
  /** Whether the pairs above (and the free cards' places) are those of the state as it is now. */
  private pairsFresh = false;
  private readonly pairStamp = new Int32Array(64);
  private pairsAt = 0;
  // Undo records of `make` in twin games, a stack: per move, the flip's record (if any), the records
  // of the swaps after it (see `flip`), then a header: flips | swaps << 8.
  private twinLog = new Int32Array(1024);
  private twinTop = 0;
  // Where each free card is (pile tops and the runs under them), valid from `findPairs` or
  // `indexTopRuns` until a move; where `twinsInRuns`, where every card is, always.
  private readonly cardPile = new Int32Array(64);
  private readonly cardIndex = new Int32Array(64);

  private static twinsApply(rules: Rules): boolean {
    return (rules.build === 'alternate-colors' || rules.build === 'any-suit') && rules.move === 'runs' && !rules.wrap;
  }

  /**
   * Notes where the free cards are (`cardPile`, `cardIndex`): each pile's top run, the only cards
   * a swap moves or moves onto. `moveAbove` keeps it up to date.
   */
  private indexTopRuns(): void {
    const H = this.maxHeight;
    for (let p = 0; p < this.piles; p++) {
      const b = p * H;
      let i = this.len[p]! - 1;
      if (i < 0) continue;
      for (;;) {
        const c = this.pile[b + i]!;
        this.cardPile[c] = p;
        this.cardIndex[c] = i;
        if (i === 0 || this.fits[c * 64 + this.pile[b + i - 1]!] !== 1) break;
        i--;
      }
    }
  }

  /**
   * What the moves keep up to date, from scratch: each pile's choices (`keepsBits`), and, where
   * `twinsInRuns`, where every card is (-1 for the cards not in the tableau).
   */
  private placeAll(): void {
    this.orderStale = true;
    for (let p = 0; this.keepsBits && p < this.piles; p++) this.setBits(p, 1);
    if (!this.twinsInRuns) return;
    this.cardPile.fill(-1);
    this.tabLo = 0;
    this.tabHi = 0;
    for (let p = 0; p < this.piles; p++) {
      this.place(p, 0, this.len[p]!);
      for (let i = p * this.maxHeight, end = i + this.len[p]!; i < end; i++) this.markTableau(this.pile[i]!, true);
    }
  }

  /** Notes card c in the tableau or not (`tabLo`, `tabHi`). */
  private markTableau(c: number, inTableau: boolean): void {
    if (c < 32) this.tabLo = inTableau ? this.tabLo | (1 << c) : this.tabLo & ~(1 << c);
    else this.tabHi = inTableau ? this.tabHi | (1 << (c - 32)) : this.tabHi & ~(1 << (c - 32));
  }

  /** Notes the places of cards `from .. from + k - 1` of pile `p`. */
  private place(p: number, from: number, k: number): void {
    const b = p * this.maxHeight;
    for (let i = from; i < from + k; i++) {
      const c = this.pile[b + i]!;
      this.cardPile[c] = p;
      this.cardIndex[c] = i;
    }
  }

  /**
   * Writes pile p's choices (`pileBits`) from its card at index `from` up, as far as they are kept,
   * keeping those below and clearing those above the pile's top.
   */
  private setBits(p: number, from: number): void {
    const bits = this.choiceBits;
    const start = from < 1 ? 1 : from;
    if ((start - 1) * bits >= BITS_KEPT) return;
    let v = this.pileBits[p]! & ((1 << ((start - 1) * bits)) - 1);
    const b = p * this.maxHeight;
    for (let i = start, n = this.len[p]!; i < n && (i - 1) * bits < BITS_KEPT; i++) {
      v |= this.choiceOf[this.pile[b + i]!]! << ((i - 1) * bits);
    }
    this.pileBits[p] = v;
  }

  /** Takes the top card off pile `p`, keeping what the moves keep. */
  private pop(p: number): void {
    const n = --this.len[p];
    if (n === 0) this.orderStale = true;
    if (this.twinsInRuns) {
      const c = this.pile[p * this.maxHeight + n]!;
      this.cardPile[c] = -1;
      this.markTableau(c, false);
    }
    if (this.keepsBits && n > 0 && (n - 1) * this.choiceBits < BITS_KEPT) {
      this.pileBits[p]! &= (1 << ((n - 1) * this.choiceBits)) - 1;
    }
  }

  /** Moves every card above `under` onto `onto`, a pile top elsewhere (a twin swap). */
  private moveAbove(under: number, onto: number): void {
    const s = this.cardPile[under]!;
    this.moveTop(s, this.cardPile[onto]!, this.len[s]! - this.cardIndex[under]! - 1);
  }

  /**
   * Moves the top k cards of pile s onto pile d (a tableau move, its undo, a twin swap), keeping
   * what the moves keep: the pile order's staleness, the places of the cards moved (twin games,
   * where `cardPile` and `cardIndex` are read), the two piles' choices.
   */
  private moveTop(s: number, d: number, k: number): void {
    const H = this.maxHeight;
    const ls = this.len[s]!;
    const ld = this.len[d]!;
    if (ld === 0 || ls === k) this.orderStale = true;
    copyCards(this.pile, d * H + ld, s * H + ls - k, k);
    this.len[s] = ls - k;
    this.len[d] = ld + k;
    if (this.twins) this.place(d, ld, k);
    if (this.keepsBits) {
      this.setBits(s, ls - k);
      this.setBits(d, ld);
    }
  }

  /**
   * Finds the swappable pairs of the state (see above) and marks their cards, then the slot groups
   * (see "slot groups"), each of whose covered cards gets an entry after the pairs; returns the
   * number of entries. Notes `cardPile` and `cardIndex` of the cards involved (the only ones
   * `flip`, `mirror` and `arrangeSlotGroup` read).
   */
  private findPairs(): number {
    if (this.twinsInRuns) return this.findPairsInRuns();
    const H = this.maxHeight;
    const P = this.piles;
    const stamp = ++this.pairsAt;
    // The free cards of each group: pile tops (exposed) and cards under a run built on them (covered).
    const exposed = this.groupExposed;
    const covered = this.groupCovered;
    exposed.fill(0);
    covered.fill(0);
    for (let d = 0; d < P; d++) {
      const l = this.len[d]!;
      if (l === 0) continue;
      const b = d * H;
      const tg = this.groupOf[this.pile[b + l - 1]!]!;
      if (exposed[tg]! < 4) this.groupTopAt[tg * 4 + exposed[tg]!] = b + l - 1;
      exposed[tg]++;
      for (let i = l - 2; i >= 0 && this.fits[this.pile[b + i + 1]! * 64 + this.pile[b + i]!] === 1; i--) {
        const g = this.groupOf[this.pile[b + i]!]!;
        if (covered[g]! < 4) this.groupCoveredAt[g * 4 + covered[g]!] = b + i;
        covered[g]++;
      }
    }
    let n = 0;
    for (let d = 0; d < P; d++) {
      const l = this.len[d]!;
      if (l === 0) continue;
      const top = this.pile[d * H + l - 1]!;
      const g = this.groupOf[top]!;
      if (exposed[g] !== 1 || covered[g] !== 1) continue;
      const twin = this.notePlace(this.groupCoveredAt[g * 4]!);
      this.notePlace(d * H + l - 1);
      n = this.insertPair(n, top, twin);
    }
    return this.markPairs(n, stamp);
  }

  /**
   * `findPairs` where every pile is a built run and a group is two twins (canfield-sequences): every
   * card below a pile top is covered by a run, so a pair is a pile top whose twin is in the tableau
   * and not a top. `cardPile` and `cardIndex` say where each card is.
   */
  private findPairsInRuns(): number {
    const H = this.maxHeight;
    const stamp = ++this.pairsAt;
    const { pile, len, cardPile } = this;
    let n = 0;
    for (let d = 0; d < this.piles; d++) {
      const l = len[d]!;
      if (l === 0) continue;
      const top = pile[d * H + l - 1]!;
      const twin = this.twinOf[top]!;
      const q = cardPile[twin]!;
      if (q < 0 || this.cardIndex[twin] === len[q]! - 1) continue;
      n = this.insertPair(n, top, twin);
    }
    return this.markPairs(n, stamp);
  }

  /** Adds pair (top, twin) to the first n, in order of the pair's lower card; beyond MAX_FLIP_PAIRS the rest are left out. */
  private insertPair(n: number, top: number, twin: number): number {
    const low = top < twin ? top : twin;
    let i = n < MAX_FLIP_PAIRS ? n++ : MAX_FLIP_PAIRS;
    while (i > 0) {
      const e = this.pairExposed[i - 1]!;
      const c = this.pairCovered[i - 1]!;
      if ((e < c ? e : c) < low) break;
      if (i < MAX_FLIP_PAIRS) {
        this.pairExposed[i] = e;
        this.pairCovered[i] = c;
      }
      i--;
    }
    if (i < MAX_FLIP_PAIRS) {
      this.pairExposed[i] = top;
      this.pairCovered[i] = twin;
    }
    return n;
  }

  /** Marks the n pairs found (`pairStamp`, `partner`), then finds the slot groups; returns the entries. */
  private markPairs(n: number, stamp: number): number {
    for (let i = 0; i < n; i++) {
      const e = this.pairExposed[i]!;
      const c = this.pairCovered[i]!;
      this.pairStamp[e] = stamp;
      this.pairStamp[c] = stamp;
      this.partner[e] = c;
      this.partner[c] = e;
    }
    this.realPairs = n;
    if (this.slotGroups) n = this.findSlotGroups(n, stamp);
    this.pairCount = n;
    this.pairsFresh = true;
    return n;
  }

  /** Notes where the card at `at` (pile * maxHeight + index) lies, in `cardPile` and `cardIndex`; returns it. */
  private notePlace(at: number): number {
    const c = this.pile[at]!;
    const H = this.maxHeight;
    this.cardPile[c] = (at / H) | 0;
    this.cardIndex[c] = at % H;
    return c;
  }

  /**
   * Slot groups (any suit; docs/algorithms.md, rule 7, "slot groups"): the groups with at least two
   * pile tops and at least one covered card, in group order while the entries fit in
   * MAX_FLIP_PAIRS (a group that does not fit is left alone, its moves ordinary ones). Marks each in
   * `slotStamp`, notes where its free cards and the cards on them lie, and adds, from entry `n`, one
   * entry per covered card: the card with, as its "exposed" twin, the group's highest top (in the
   * one form, its highest free card). Returns the new number of entries.
   */
  private findSlotGroups(n: number, stamp: number): number {
    const exposed = this.groupExposed;
    const covered = this.groupCovered;
    for (let g = 0; g < this.groupCount; g++) {
      const e = exposed[g]!;
      const c = covered[g]!;
      if (e < 2 || c < 1 || n + c > MAX_FLIP_PAIRS) continue;
      this.slotStamp[g] = stamp;
      // The highest top: in the one form the highest free card, whichever state this is.
      let high = -1;
      for (let i = 0; i < e; i++) {
        const f = this.notePlace(this.groupTopAt[g * 4 + i]!);
        this.slotFree[g * 4 + i] = f;
        if (f > high) high = f;
      }
      for (let i = 0; i < c; i++) {
        const at = this.groupCoveredAt[g * 4 + i]!;
        this.slotFree[g * 4 + e + i] = this.notePlace(at);
        this.slotKids[g * 4 + i] = this.notePlace(at + 1);
      }
      for (let i = 0; i < c; i++) {
        this.pairExposed[n] = high;
        this.pairCovered[n] = this.slotFree[g * 4 + e + i]!;
        n++;
      }
    }
    return n;
  }

  /** The card directly on free card f, or -1 when f is a pile top (`cardPile`, `cardIndex` must be current). */
  private cardOn(f: number): number {
    const p = this.cardPile[f]!;
    const i = this.cardIndex[f]!;
    return i + 1 < this.len[p]! ? this.pile[p * this.maxHeight + i + 1]! : -1;
  }

  /**
   * Puts slot group g in its one form: its covered cards' runs, ordered by their bottom cards, on
   * the group's free cards in card order, lowest first (so the highest free cards are tops). Each
   * step carries a run from a card of the group onto a top of the group, a legal move; the steps
   * are logged for undo as `canonicalize`'s swaps are, and described into `out` if given. Returns
   * how many steps it took.
   */
  private arrangeSlotGroup(g: number, out?: Move[]): number {
    const H = this.maxHeight;
    // Cards, not places: a pair's swap may have carried some of them to another pile since.
    const free = this.slotFree;
    const kids = this.slotKids;
    const at = g * 4;
    const m = this.groupExposed[g]! + this.groupCovered[g]!;
    const c = this.groupCovered[g]!;
    sortSmall(free, at, m);
    sortSmall(kids, at, c);
    let steps = 0;
    for (let i = 0; i < c; i++) {
      const f = free[at + i]!;
      const k = kids[at + i]!;
      const holder = this.pile[this.cardPile[k]! * H + this.cardIndex[k]! - 1]!;
      if (holder === f) continue;
      const on = this.cardOn(f);
      if (on >= 0) {
        // f holds another group card's run: carry it to a top of the group past f (there are two).
        let j = at + i + 1;
        while (this.cardOn(free[j]!) >= 0) j++;
        steps += this.carry(f, free[j]!, out);
      }
      steps += this.carry(holder, f, out);
    }
    return steps;
  }

  /** Carries the run above `under` onto `onto` (a top), logged for undo and described into `out`. */
  private carry(under: number, onto: number, out?: Move[]): number {
    if (out) out.push(this.describeSwap(under, onto));
    this.moveAbove(under, onto);
    this.twinLog[this.twinTop++] = onto | (under << 8);
    return 1;
  }

  /**
   * Turns pair j (by `findPairs` order) the other way, describing the swap into `out` if given;
   * returns the record `undo` needs: the card that took the run | the card it left << 8.
   */
  private flip(j: number, out?: Move[]): number {
    const onto = this.pairExposed[j]!;
    const under = this.pairCovered[j]!;
    if (out) out.push(this.describeSwap(under, onto));
    this.moveAbove(under, onto);
    return onto | (under << 8);
  }

  /**
   * Puts the state in its one form: every swappable pair with the run on its lower card. Pushes a
   * record of each swap on the undo log (as `flip` returns it) and returns how many; describes the
   * swaps into `out` if given.
   */
  private canonicalize(out?: Move[]): number {
    this.findPairs();
    const n = this.realPairs;
    let swaps = 0;
    for (let i = 0; i < n; i++) {
      const e = this.pairExposed[i]!;
      const c = this.pairCovered[i]!;
      if (e > c) continue;
      if (out) out.push(this.describeSwap(c, e));
      this.moveAbove(c, e);
      this.twinLog[this.twinTop++] = e | (c << 8);
      this.pairExposed[i] = c;
      this.pairCovered[i] = e;
      swaps++;
    }
    if (this.pairCount > n) {
      // Slot groups: a swap above moves runs, never a group's free cards, so each is arranged as
      // it stands; the entries are then found again, on the one form.
      let steps = 0;
      for (let g = 0; g < this.groupCount; g++) {
        if (this.slotStamp[g] === this.pairsAt) steps += this.arrangeSlotGroup(g, out);
      }
      if (steps > 0) this.findPairs();
      swaps += steps;
    }
    if (this.crosses) swaps += this.orderCrosses();
    return swaps;
  }

  /**
   * Crossed twins: for each group whose two twins are both covered (every pile is a run, so each has
   * the other group's two twins on them, one each), puts the lower of those on the lower twin,
   * exchanging what lies above the two (`exchangeAbove`, logged for undo). Returns the exchanges.
   */
  private orderCrosses(): number {
    // Every card's place is current (`twinsInRuns`).
    const H = this.maxHeight;
    const { pile, len, cardPile, cardIndex } = this;
    // The covered cards: the tableau's, less the pile tops.
    let lo = this.tabLo;
    let hi = this.tabHi;
    for (let p = 0; p < this.piles; p++) {
      if (len[p] === 0) continue;
      const c = pile[p * H + len[p]! - 1]!;
      if (c < 32) lo &= ~(1 << c);
      else hi &= ~(1 << (c - 32));
    }
    // Both twins covered, as a set of the lower twins: clubs (cards 0-12) with spades (39-51),
    // diamonds (13-25) with hearts (26-38).
    const clubs = lo & (hi >>> 7) & 0x1fff;
    const diamonds = (lo >>> 13) & ((lo >>> 26) | (hi << 6)) & 0x1fff;
    let both = clubs | (diamonds << 13);
    let n = 0;
    while (both !== 0) {
      const t = 31 - Math.clz32(both & -both);
      both &= both - 1;
      const u = this.twinOf[t]!;
      const p = cardPile[t]!;
      const q = cardPile[u]!;
      const i = cardIndex[t]!;
      const j = cardIndex[u]!;
      if (pile[p * H + i + 1]! < pile[q * H + j + 1]!) continue;
      this.exchangeAbove(t, u);
      this.twinLog[this.twinTop++] = t | (u << 8) | CROSS_RECORD;
      n++;
    }
    return n;
  }

  /** Exchanges the cards above `a` with the cards above `b` (two covered twins in different piles). */
  private exchangeAbove(a: number, b: number): void {
    const H = this.maxHeight;
    const p = this.cardPile[a]!;
    const q = this.cardPile[b]!;
    const i = p * H + this.cardIndex[a]! + 1;
    const j = q * H + this.cardIndex[b]! + 1;
    const ka = p * H + this.len[p]! - i;
    const kb = q * H + this.len[q]! - j;
    const tmp = this.crossScratch;
    for (let x = 0; x < ka; x++) tmp[x] = this.pile[i + x]!;
    copyCards(this.pile, i, j, kb);
    for (let x = 0; x < ka; x++) this.pile[j + x] = tmp[x]!;
    this.len[p] += kb - ka;
    this.len[q] += ka - kb;
    for (let x = 0; x < kb; x++) {
      const c = this.pile[i + x]!;
      this.cardPile[c] = p;
      this.cardIndex[c] = this.cardIndex[a]! + 1 + x;
    }
    for (let x = 0; x < ka; x++) {
      const c = this.pile[j + x]!;
      this.cardPile[c] = q;
      this.cardIndex[c] = this.cardIndex[b]! + 1 + x;
    }
    if (this.keepsBits) {
      this.setBits(p, this.cardIndex[a]! + 1);
      this.setBits(q, this.cardIndex[b]! + 1);
    }
  }

  /**
   * The key of the state with its crossed twins in order (`orderCrosses`), the state itself left as
   * it is: what an engine without crosses compares with the key of one with them (solutions).
   */
  encodeOrdered(key: Uint32Array): number {
    const mark = this.twinTop;
    this.twinRoom(32);
    this.findPairs();
    this.orderCrosses();
    const words = this.encode(key);
    while (this.twinTop > mark) {
      const record = this.twinLog[--this.twinTop]!;
      this.exchangeAbove(record & 255, (record >>> 8) & 255);
    }
    return words;
  }

  /** The public move of a twin swap: the cards above `under` onto `onto`. */
  private describeSwap(under: number, onto: number): Move {
    const s = this.cardPile[under]!;
    const at = s * this.maxHeight + this.cardIndex[under]!;
    const count = s * this.maxHeight + this.len[s]! - at - 1;
    const tableau = (index: number) => ({ area: 'tableau' as const, index });
    return { kind: 'move', card: this.pile[at + 1]!, count, from: tableau(s), to: tableau(this.cardPile[onto]!) };
  }

  /**
   * Writes the moves of the current state into `out` from `at`, most promising first, and returns
   * the new end. When a proved-safe foundation move exists it is the only move written (forced).
   * In twin games, also the moves of the state with some twin pairs flipped (see "twins").
   */
  generate(out: Int32Array, at: number): number {
    if (!this.twins) return this.generateMoves(out, at);
    const pairs = this.pairsFresh ? this.pairCount : this.findPairs();
    let n = this.generateMoves(out, at);
    if (pairs === 0 || (n === at + 1 && (out[at]! & FORCED_BIT) !== 0)) return n;
    // One pair flipped: its moves follow from the list just made (see `mirror`).
    const base = n;
    for (let j = 0; j < pairs; j++) {
      n = this.mirror(out, at, base, n, j);
      if (n < 0) return at + 1;
    }
    return n;
  }

  /**
   * Writes from `n` the moves that pair j, turned the other way, adds to the class; works them out
   * from the state's own moves `out[at .. base)`. Returns the new end, or -1 when the turned state
   * has a forced move (then written at `at`, the only move). With c the covered twin under its run
   * R and e the exposed one, turning the pair puts R on e and leaves c on top. Then:
   * - c may go to its foundation (forced when safe);
   * - whatever may go onto e may go onto c instead (twins take the same cards): a new class, as
   *   both twins are then covered.
   * Every other move of the turned state lands in the class of a move of the state as it is: a
   * run that holds c or e lands with the pair still split between two piles, one on top and one
   * under R, which is a swap away from the same move with R where it was; no card can be built on
   * c or e from their own piles; and the reserve, talon and other piles are as they were. Turning
   * two pairs at once adds nothing either: a move builds onto one card. (docs/algorithms.md, rule 7.)
   */
  private mirror(out: Int32Array, at: number, base: number, n: number, j: number): number {
    const c = this.pairCovered[j]!;
    const pc = this.cardPile[c]!;
    const pe = this.cardPile[this.pairExposed[j]!]!;
    const flip = (j + 1) << FLIP_SHIFT;
    if (this.toFoundation(c)) {
      const m = MT_T2F | (pc << SRC_SHIFT) | flip;
      if (this.isSafeToFoundation(c)) {
        out[at] = m | FORCED_BIT;
        return -1;
      }
      out[n++] = m;
    }
    // A slot group keeps a top after a card goes onto any of its cards, so that lands in the class
    // of the same move onto its top: nothing to add.
    if (j >= this.realPairs) return n;
    const dst = PILE_MASK << DST_SHIFT;
    for (let i = at; i < base; i++) {
      const m = out[i]!;
      const type = moveType(m);
      if (type === MT_T2T || type === MT_R2T || type === MT_W2T || type === MT_F2T) {
        if (moveDst(m) === pe) out[n++] = (m & ~dst) | (pc << DST_SHIFT) | flip;
      }
    }
    return n;
  }

  /**
   * Makes move m; returns what `undo` needs. In twin games the move's flips come first and the
   * state is put back in its one form after (both logged for undo).
   */
  make(m: number): number {
    if (!this.twins) return this.makeMove(m);
    return this.makeTwins(m);
  }

  /** Makes room in the twin log for `records` more (a move's flip, swaps, exchanges and header). */
  private twinRoom(records: number): void {
    if (this.twinTop + records <= this.twinLog.length) return;
    const grown = new Int32Array(2 * (this.twinLog.length + records));
    grown.set(this.twinLog);
    this.twinLog = grown;
  }

  private makeTwins(m: number, out?: Move[]): number {
    this.twinRoom(4 * MAX_FLIP_PAIRS + 2 + 32);
    const pair = ((m >>> FLIP_SHIFT) & FLIP_MASK) - 1;
    let flips = 0;
    if (pair >= 0) {
      if (!this.pairsFresh) this.findPairs();
      this.pairsFresh = false;
      this.twinLog[this.twinTop++] = this.flip(pair, out);
      flips = 1;
    }
    const plain = m & ~(FLIP_MASK << FLIP_SHIFT);
    if (out) out.push(...this.describe(plain));
    const info = this.makeMove(plain);
    this.pairsFresh = false;
    if (out) this.noteAutoFill(out, info);
    const swaps = this.canonicalize(out);
    this.twinLog[this.twinTop++] = flips | (swaps << 8);
    return flips + swaps !== 0 ? info | TWIN_BIT : info;
  }

  undo(m: number, info: number): void {
    if (!this.twins) {
      this.undoMove(m, info);
      return;
    }
    this.pairsFresh = false;
    const header = this.twinLog[--this.twinTop]!;
    // Each record names the card that took a run and the card it came from: give it back, last first.
    if (header >>> 8 !== 0) {
      if (!this.twinsInRuns) this.indexTopRuns();
      for (let i = header >>> 8; i > 0; i--) {
        const record = this.twinLog[--this.twinTop]!;
        if ((record & CROSS_RECORD) !== 0) this.exchangeAbove(record & 255, (record >>> 8) & 255);
        else this.moveAbove(record & 255, record >>> 8);
      }
    }
    this.undoMove(m & ~(FLIP_MASK << FLIP_SHIFT), info & ~TWIN_BIT);
    if ((header & 255) !== 0) {
      if (!this.twinsInRuns) this.indexTopRuns();
      const record = this.twinLog[--this.twinTop]!;
      this.moveAbove(record & 255, record >>> 8);
    }
  }

  /**
   * Makes move m and appends the public moves it stands for to `out`: twin swaps before it, the
   * deals and redeals that bring a waste card up, the move itself (with the reserve card that
   * filled the pile it emptied, if any), and the twin swaps after it. Returns what `undo` needs.
   */
  makeDescribed(m: number, out: Move[]): number {
    if (this.twins) return this.makeTwins(m, out);
    out.push(...this.describe(m));
    const info = this.makeMove(m);
    this.noteAutoFill(out, info);
    return info;
  }

  /** Notes on the last move of `out` the reserve card that filled the pile it emptied, if any. */
  private noteAutoFill(out: Move[], info: number): void {
    const last = out[out.length - 1]!;
    if ((info & AUTO_FILL_BIT) !== 0 && last.kind === 'move' && last.from.area === 'tableau') {
      last.autoFill = { card: this.reserve[this.resCount]!, pile: last.from.index };
    }
  }

  // ---- make / undo -------------------------------------------------------------------------------
  // Undo needs, besides the move: the talon split before a waste move, the card a tableau card to
  // foundation move took, and whether the reserve filled the emptied source pile. `make` returns them
  // packed: split or card in the low byte | AUTO_FILL_BIT (| TWIN_BIT, see "twins").

  private push(d: number, c: number): void {
    const n = this.len[d]!;
    if (n === 0) this.orderStale = true;
    this.pile[d * this.maxHeight + n] = c;
    this.len[d] = n + 1;
    if (this.twinsInRuns) {
      this.cardPile[c] = d;
      this.cardIndex[c] = n;
      this.markTableau(c, true);
    }
    if (this.keepsBits) {
      if (n === 0) this.pileBits[d] = 0;
      else if ((n - 1) * this.choiceBits < BITS_KEPT) this.pileBits[d]! |= this.choiceOf[c]! << ((n - 1) * this.choiceBits);
    }
  }

  private afterEmptying(p: number): number {
    if (this.autoReserve && this.len[p] === 0 && this.resCount > 0) {
      this.resCount--;
      this.push(p, this.reserve[this.resCount]!);
      return AUTO_FILL_BIT;
    }
    return 0;
  }

  private makeMove(m: number): number {
    switch (moveType(m)) {
      case MT_T2F: {
        const s = moveSrc(m);
        const c = this.top(s);
        this.pop(s);
        this.found[SUIT_OF[c]!]++;
        // The card goes in the undo info: its slot in the pile may be overwritten before the undo.
        return c | this.afterEmptying(s);
      }
      case MT_T2T: {
        const s = moveSrc(m);
        this.moveTop(s, moveDst(m), moveCount(m));
        return this.afterEmptying(s);
      }
      case MT_R2F: {
        this.resCount--;
        this.found[SUIT_OF[this.reserve[this.resCount]!]!]++;
        return 0;
      }
      case MT_R2T: {
        this.resCount--;
        this.push(moveDst(m), this.reserve[this.resCount]!);
        return 0;
      }
      case MT_W2F:
      case MT_W2T: {
        const undo = this.talon.split;
        const c = this.talon.take(moveTalon(m), (m & REDEAL_BIT) !== 0);
        if (moveType(m) === MT_W2F) this.found[SUIT_OF[c]!]++;
        else this.push(moveDst(m), c);
        return undo;
      }
      case MT_F2T: {
        const s = moveSuit(m);
        const f = --this.found[s];
        this.push(moveDst(m), makeCard(s, rankAtOrder(this.rules, this.baseRank, f)));
        return 0;
      }
    }
    throw new Error(`bad internal move ${m}`);
  }

  private undoMove(m: number, info: number): void {
    switch (moveType(m)) {
      case MT_T2F: {
        const s = moveSrc(m);
        if (info & AUTO_FILL_BIT) {
          this.pop(s);
          this.resCount++;
        }
        const c = info & 255;
        this.push(s, c);
        this.found[SUIT_OF[c]!]--;
        return;
      }
      case MT_T2T: {
        const s = moveSrc(m);
        if (info & AUTO_FILL_BIT) {
          this.pop(s);
          this.resCount++;
        }
        this.moveTop(moveDst(m), s, moveCount(m));
        return;
      }
      case MT_R2F: {
        this.found[SUIT_OF[this.reserve[this.resCount]!]!]--;
        this.resCount++;
        return;
      }
      case MT_R2T: {
        this.pop(moveDst(m));
        this.resCount++;
        return;
      }
      case MT_W2F:
      case MT_W2T: {
        const idx = moveTalon(m);
        const c = this.talon.cards[idx]!;
        if (moveType(m) === MT_W2F) this.found[SUIT_OF[c]!]--;
        else this.pop(moveDst(m));
        this.talon.putBack(idx, (m & REDEAL_BIT) !== 0, info & 255);
        return;
      }
      case MT_F2T: {
        this.pop(moveDst(m));
        this.found[moveSuit(m)]++;
        return;
      }
    }
  }

  // ---- the packed key ----------------------------------------------------------------------------

  /**
   * Writes the canonical packed key of the state into `key` and returns its length in 32-bit words.
   * Byte layout, in order:
   *   0-1   foundation counts, 4 bits per suit (C in the low bits)
   *   2     reserve count
   *   3     talon split                      } only when the game has a stock, and not with
   *   4-5   redeals used (with a limit only) } draw 1 and a limit (see `passRank`); with a
   *                                              larger draw and unlimited redeals byte 3 is only
   *                                              the split's class divided by 4: the table keeps
   *                                              four classes in the lanes of one entry (`laneOf`)
   *   ...   each tableau pile, sorted by bottom card (piles are interchangeable, so permutations
   *         are one state): its length, then its cards bottom to top, one byte each; or, where
   *         every pile is a built run (`runKeys`), each pile's length and bottom card, then the
   *         choices of the cards above the bottoms, `choiceBits` each, packed low bits first
   *   zero bytes up to the next whole word.
   * Which talon cards are gone is not written: a talon card only ever goes home or into the
   * tableau, so the foundations and piles say it (`removedFromKey`).
   * With the deal it was loaded from (reserve order, talon order), the key determines the state
   * exactly (with `passRank` beside it under pass or split dominance), so equal keys mean equal
   * states (or states ordered by their rank). Bytes, not 6-bit fields: copying a pile is then a
   * byte loop, which profiling showed to matter more than the third of a key it would save.
   * `rank`: the state's `passRank`, when the caller has it (else it is worked out again).
   */
  encode(key: Uint32Array, rank = -1): number {
    const bytes = this.keyBytes(key);
    const f = this.found;
    bytes[0] = f[0]! | (f[1]! << 4);
    bytes[1] = f[2]! | (f[3]! << 4);
    bytes[2] = this.resCount;
    let n = 3;
    if (this.talon.length > 0) {
      if (this.talon.splitDominance) bytes[n++] = this.talon.splitClass(rank >= 0 ? rank : this.talon.splitRank()) >>> 2;
      else if (!this.talon.passDominance) bytes[n++] = this.talon.keySplit();
      if (this.talon.redealLimit >= 0 && !this.talon.passDominance) {
        bytes[n++] = this.talon.redealsUsed & 255;
        bytes[n++] = this.talon.redealsUsed >>> 8;
      }
      // No removed flags: a talon card is gone exactly when it is home or in the tableau, which the
      // rest of the key says (see `removedFromKey`).
    }
    const P = this.piles;
    const H = this.maxHeight;
    const ord = this.pileOrder;
    const pile = this.pile;
    const len = this.len;
    // The piles sorted by bottom card. A bottom changes only when a pile empties or an empty one
    // is filled (cards move onto tops, and leave from tops or as whole piles), so the order is kept
    // until then.
    if (this.orderStale) {
      this.orderStale = false;
      for (let p = 0; p < P; p++) {
        const bottom = len[p]! > 0 ? pile[p * H]! : NO_CARD;
        let i = p;
        while (i > 0) {
          const q = ord[i - 1]!;
          const qb = len[q]! > 0 ? pile[q * H]! : NO_CARD;
          if (qb <= bottom) break;
          ord[i] = q;
          i--;
        }
        ord[i] = p;
      }
    }
    if (this.runKeys) {
      // Each pile is a built run: its length and bottom card, then one choice per card above.
      const bits = this.choiceBits;
      const choice = this.choiceOf;
      for (let i = 0; i < P; i++) {
        const p = ord[i]!;
        const m = len[p]!;
        bytes[n++] = m;
        if (m > 0) bytes[n++] = pile[p * H]!;
      }
      // The choices, pile after pile, in chunks of at most BITS_KEPT bits: a pile's first chunk is
      // its `pileBits` where the moves keep them, any further chunk (round the corner) is read.
      const per = this.choicesPerChunk;
      let acc = 0;
      let nAcc = 0;
      for (let i = 0; bits > 0 && i < P; i++) {
        const p = ord[i]!;
        const m = len[p]!;
        for (let from = 1; from < m; from += per) {
          const k = m - from < per ? m - from : per;
          let v = 0;
          if (from === 1 && this.keepsBits) v = this.pileBits[p]!;
          else for (let j = 0, at = p * H + from; j < k; j++) v |= choice[pile[at + j]!]! << (j * bits);
          const w = k * bits;
          acc |= v << nAcc;
          if (nAcc + w >= 32) {
            bytes[n] = acc;
            bytes[n + 1] = acc >>> 8;
            bytes[n + 2] = acc >>> 16;
            bytes[n + 3] = acc >>> 24;
            n += 4;
            acc = nAcc === 0 ? 0 : v >>> (32 - nAcc);
            nAcc += w - 32;
          } else nAcc += w;
        }
      }
      for (; nAcc > 0; nAcc -= 8, acc >>>= 8) bytes[n++] = acc;
    } else {
      for (let i = 0; i < P; i++) {
        const p = ord[i]!;
        const m = len[p]!;
        bytes[n++] = m;
        let j = p * H;
        const end = j + m;
        while (j < end) bytes[n++] = pile[j++]!;
      }
    }
    const words = (n + 3) >>> 2;
    while (n < words * 4) bytes[n++] = 0;
    return words;
  }

  /**
   * Loads the state a key stands for, with the rank the table stored beside it (`passRank`; it
   * gives the talon split under pass or split dominance), into this engine: the inverse of
   * `encode`, up to the order of the tableau piles, which come back sorted by bottom card. Needs
   * this engine's deal.
   */
  load(key: Uint32Array, words: number, rank = 0): void {
    this.pairsFresh = false;
    const bytes = this.keyBytes(key);
    void words;
    const f = this.found;
    f[0] = bytes[0]! & 15;
    f[1] = bytes[0]! >>> 4;
    f[2] = bytes[1]! & 15;
    f[3] = bytes[1]! >>> 4;
    this.resCount = bytes[2]!;
    const talon = this.talon;
    let n = 3;
    let split = -1;
    let redeals = talon.redealsUsed;
    if (talon.length > 0) {
      if (!talon.passDominance) split = bytes[n++]!;
      if (talon.redealLimit >= 0 && !talon.passDominance) {
        redeals = bytes[n]! | (bytes[n + 1]! << 8);
        n += 2;
      }
    }
    this.unpackTableau(bytes, n);
    this.pile.set(this.keyPile);
    this.len.set(this.keyLen);
    this.placeAll();
    if (talon.length > 0) talon.restore(this.removedFromKey(f), split, redeals, rank);
  }

  /**
   * Reads the key's piles, from byte `at`, into `keyPile` and `keyLen` (the layout of `pile` and
   * `len`): each pile's length, then its cards; or, with run keys, the lengths and bottom cards,
   * then each card above a bottom as its place among the builders of the card under it.
   */
  private unpackTableau(bytes: Uint8Array, at: number): void {
    const H = this.maxHeight;
    let n = at;
    if (!this.runKeys) {
      for (let p = 0; p < this.piles; p++) {
        const m = bytes[n++]!;
        this.keyLen[p] = m;
        for (let i = 0; i < m; i++) this.keyPile[p * H + i] = bytes[n++]!;
      }
      return;
    }
    // Lengths and bottom cards first, then the choices, in pile order.
    for (let p = 0; p < this.piles; p++) {
      const m = bytes[n++]!;
      this.keyLen[p] = m;
      if (m > 0) this.keyPile[p * H] = bytes[n++]!;
    }
    const bits = this.choiceBits;
    const mask = (1 << bits) - 1;
    let acc = 0;
    let nAcc = 0;
    for (let p = 0; p < this.piles; p++) {
      for (let i = 1, m = this.keyLen[p]!; i < m; i++) {
        if (nAcc < bits) {
          acc |= bytes[n++]! << nAcc;
          nAcc += 8;
        }
        const t = this.keyPile[p * H + i - 1]!;
        this.keyPile[p * H + i] = this.builders[t * 4 + (acc & mask)]!;
        acc >>>= bits;
        nAcc -= bits;
      }
    }
  }

  /**
   * The removed flags of the talon for a key (which does not hold them): a talon card is gone
   * exactly when it is on its foundation or in the tableau (the key's piles, just read by
   * `unpackTableau`), since it never goes anywhere else. Answers a scratch array, entry i for
   * talon entry i.
   */
  private removedFromKey(found: ArrayLike<number>): Uint8Array {
    const inTableau = this.keyCards;
    inTableau.fill(0);
    const H = this.maxHeight;
    for (let p = 0; p < this.piles; p++) {
      for (let i = 0; i < this.keyLen[p]!; i++) inTableau[this.keyPile[p * H + i]!] = 1;
    }
    const removed = this.keyRemoved;
    for (let i = 0; i < this.talon.length; i++) {
      const c = this.talon.cards[i]!;
      removed[i] = inTableau[c] === 1 || this.order[c]! < found[cardSuit(c)]! ? 1 : 0;
    }
    return removed;
  }

  private readonly keyCards = new Uint8Array(64);
  private readonly keyPile: Uint8Array;
  private readonly keyLen: Int32Array;
  private readonly keyRemoved = new Uint8Array(64);

  /**
   * A guess at how close the state is to a win, for the best-first search of the tableau-only games
   * (higher is better): cards home, less cards out of sequence ("breaks": a card that does not fit
   * on the one under it), less cards above the card each foundation takes next, more spaces.
   * It only orders the search; the verdict never depends on it.
   */
  evaluate(): number {
    const P = this.piles;
    const H = this.maxHeight;
    const pile = this.pile;
    const found = this.found;
    const ord = this.order;
    const fits = this.fits;
    let breaks = 0;
    let buried = 0;
    let spaces = 0;
    for (let p = 0; p < P; p++) {
      const l = this.len[p]!;
      if (l === 0) {
        spaces++;
        continue;
      }
      const b = p * H;
      let below = pile[b]!;
      if (found[cardSuit(below)] === ord[below]) buried += l - 1;
      for (let i = 1; i < l; i++) {
        const c = pile[b + i]!;
        if (fits[c * 64 + below] !== 1) breaks++;
        if (found[cardSuit(c)] === ord[c]) buried += l - 1 - i;
        below = c;
      }
    }
    const home = found[0]! + found[1]! + found[2]! + found[3]!;
    return home * W_HOME - breaks * W_BREAK - buried * W_BURIED + spaces * W_SPACE;
  }

  /**
   * The position a key stands for, with the rank the table stored beside it (`passRank`; it gives
   * the talon split under pass or split dominance): the inverse of `encode`, up to the order of
   * tableau piles, which come back sorted by bottom card. Needs this engine's deal: its reserve and
   * talon order.
   */
  decode(key: Uint32Array, words: number, rank = 0): Position {
    const bytes = new Uint8Array(key.buffer, key.byteOffset, words * 4);
    const foundations = [bytes[0]! & 15, bytes[0]! >>> 4, bytes[1]! & 15, bytes[1]! >>> 4];
    const resCount = bytes[2]!;
    let n = 3;
    const waste: Card[] = [];
    const stock: Card[] = [];
    const talon = this.talon;
    let redealsUsed = talon.redealsUsed;
    let split = -1;
    if (talon.length > 0 && !talon.passDominance) {
      split = bytes[n++]!;
      if (talon.redealLimit >= 0) {
        redealsUsed = bytes[n]! | (bytes[n + 1]! << 8);
        n += 2;
      }
    }
    this.unpackTableau(bytes, n);
    if (talon.length > 0) {
      const removed = this.removedFromKey(foundations);
      redealsUsed = talon.redealsOfKey(redealsUsed, rank);
      split = talon.splitOfKey(removed, split, rank);
      for (let i = 0; i < this.talon.length; i++) {
        if (removed[i] === 1) continue;
        (i < split ? waste : stock).push(this.talon.cards[i]!);
      }
      stock.reverse();
    }
    const tableau: Card[][] = [];
    const H = this.maxHeight;
    for (let p = 0; p < this.piles; p++) tableau.push(Array.from(this.keyPile.subarray(p * H, p * H + this.keyLen[p]!)));
    return {
      rules: this.rules,
      baseRank: this.baseRank,
      foundations,
      reserve: Array.from(this.reserve.subarray(0, resCount)),
      tableau,
      stock,
      waste,
      redealsUsed,
    };
  }

  private keyView: Uint8Array = new Uint8Array(0);
  private keyWordsView: Uint32Array = new Uint32Array(0);

  private keyBytes(key: Uint32Array): Uint8Array {
    if (this.keyWordsView !== key) {
      this.keyWordsView = key;
      this.keyView = new Uint8Array(key.buffer, key.byteOffset, key.byteLength);
    }
    return this.keyView;
  }

  // ---- back to the public world ------------------------------------------------------------------

  /** The current state as a public Position. */
  toPosition(): Position {
    const tableau: Card[][] = [];
    for (let p = 0; p < this.piles; p++) tableau.push(Array.from(this.pile.subarray(p * this.maxHeight, p * this.maxHeight + this.len[p]!)));
    const waste: Card[] = [];
    const stock: Card[] = [];
    for (let i = 0; i < this.talon.length; i++) {
      if (this.talon.removed[i]) continue;
      if (i < this.talon.split) waste.push(this.talon.cards[i]!);
      else stock.push(this.talon.cards[i]!);
    }
    stock.reverse();
    return {
      rules: this.rules,
      baseRank: this.baseRank,
      foundations: Array.from(this.found),
      reserve: Array.from(this.reserve.subarray(0, this.resCount)),
      tableau,
      stock,
      waste,
      redealsUsed: this.talon.redealsUsed,
    };
  }

  /**
   * The public moves for internal move m in the current state: the deals and redeals that bring a
   * waste card to the top, then the move itself. Without its twin flips and swaps (`makeDescribed`
   * gives the whole of a move, and the reserve's automatic fill).
   */
  describe(m: number): Move[] {
    const out: Move[] = [];
    const type = moveType(m);
    const tableau = (index: number) => ({ area: 'tableau' as const, index });
    let card: number;
    let count = 1;
    let from: Place;
    if (type === MT_W2F || type === MT_W2T) {
      const idx = moveTalon(m);
      // Replay the dealing until the wanted card is on top, as `Talon.list` found it.
      let split = this.talon.split;
      let redealt = false;
      const wantRedeal = (m & REDEAL_BIT) !== 0;
      while (!(this.talon.wasteTopIndex(split) === idx && redealt === wantRedeal)) {
        const next = this.talon.dealFrom(split);
        if (next > 0) {
          out.push({ kind: 'deal' });
          split = next;
        } else {
          if (redealt) throw new Error('internal: talon card not reachable');
          out.push({ kind: 'redeal' });
          redealt = true;
          split = 0;
        }
      }
      card = this.talon.cards[idx]!;
      from = { area: 'waste' };
    } else if (type === MT_R2F || type === MT_R2T) {
      card = this.reserve[this.resCount - 1]!;
      from = { area: 'reserve' };
    } else if (type === MT_F2T) {
      const s = moveSuit(m);
      card = makeCard(s, rankAtOrder(this.rules, this.baseRank, this.found[s]! - 1));
      from = { area: 'foundation' };
    } else {
      const s = moveSrc(m);
      count = type === MT_T2T ? moveCount(m) : 1;
      card = this.pile[s * this.maxHeight + this.len[s]! - count]!;
      from = tableau(s);
    }
    const toFoundation = type === MT_T2F || type === MT_R2F || type === MT_W2F;
    const move: Move = { kind: 'move', card, count, from, to: toFoundation ? { area: 'foundation' } : tableau(moveDst(m)) };
    out.push(move);
    return out;
  }
}
