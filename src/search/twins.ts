import { cardColour, cardRank, cardSuit, makeCard } from '../cards/card';
import type { Move } from '../rules/move';
import { copyCards, type Board } from './board';
import type { KeyCodec } from './key';
import { FLIP_MASK, FLIP_SHIFT, MAX_FLIP_PAIRS, TWIN_BIT } from './move-code';

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

/** A twin-log record of an exchange of crossed twins (`orderCrosses`), not a swap. */
const CROSS_RECORD = 1 << 16;

/**
 * Cards of one group (a rank and colour under alternating colours, a rank in any suit) fit on the
 * same cards and take the same cards. When a group's free cards (pile tops, and cards under a run
 * built on them) are exactly two, one a pile top and one under a run in another pile, moving that
 * run onto the top card is a legal move and so is moving it back: the two states reach each
 * other in one move each way, so they are won or lost together. Such a pair is "swappable", and
 * the swappable pairs of a state are independent: swapping one changes no other pair's standing
 * (docs/algorithms.md, rule 7). So the search keeps every state in one form, the run on the lower
 * card of each pair (`canonicalize`, after every move), never generates a swap, and adds the
 * moves that turning one pair the other way ("flipping" it, the move's flip field) brings to the
 * class (`Engine.mirror`).
 *
 * This class finds the pairs, puts states in their one form and logs its swaps for undo.
 */
export class TwinClasses {
  readonly board: Board;
  /**
   * Each card's group: the cards that fit on the same cards and take the same cards (one rank and
   * colour under alternating colours, one rank in any suit). A pair is a group with exactly two
   * free cards, one a pile top and one under a run built on it.
   */
  readonly groupOf = new Uint8Array(64);
  private readonly groupExposed = new Int32Array(64);
  private readonly groupCovered = new Int32Array(64);
  /** Where (pile * maxHeight + index) `findPairs` met each group's first four tops and covered cards. */
  private readonly groupTopAt = new Int32Array(64 * 4);
  /** The other card of a card's group when a group is two twins (alternating colours), else 255. */
  readonly twinOf = new Uint8Array(64).fill(255);
  /**
   * Crossed twins (canfield-sequences; docs/algorithms.md, rule 7, "crossed twins"): when both twins
   * of a group are covered, the runs on them are kept in one order, lower card on lower card.
   */
  readonly crosses: boolean;
  private readonly crossScratch = new Uint8Array(64);
  private readonly groupCoveredAt = new Int32Array(64 * 4);
  /** Groups are 0 .. groupCount-1. */
  private readonly groupCount: number;
  /** Whether groups can have three or more free cards (any suit): see `findSlotGroups`. */
  readonly slotGroups: boolean;
  /** Groups kept in their one form as slot groups, valid where equal to `pairsAt`. */
  readonly slotStamp = new Int32Array(64);
  /** Pairs 0 .. realPairs-1 of the list are twin pairs; the rest stand for slot groups' covered cards. */
  realPairs = 0;
  /** Per slot group g, from g * 4: its free cards (tops first, then the covered ones). */
  private readonly slotFree = new Int32Array(64 * 4);
  /** Per slot group g, from g * 4: the cards on its covered cards (the bottoms of their runs). */
  private readonly slotKids = new Int32Array(64 * 4);
  /** The other card of a card's pair, valid where `pairStamp` is current. */
  readonly partner = new Int32Array(64);
  // The swappable pairs of the state as `findPairs` last saw it: the twin on top (exposed) and the
  // one under a run (covered), in the order of the pairs' lower cards, at most MAX_FLIP_PAIRS.
  readonly pairExposed = new Int32Array(MAX_FLIP_PAIRS);
  readonly pairCovered = new Int32Array(MAX_FLIP_PAIRS);
  pairCount = 0;
  /** Whether the pairs above (and the free cards' places) are those of the state as it is now. */
  pairsFresh = false;
  readonly pairStamp = new Int32Array(64);
  pairsAt = 0;
  // Undo records of `make` in twin games, a stack: per move, the flip's record (if any), the records
  // of the swaps after it (see `flip`), then a header: flips | swaps << 8.
  private twinLog = new Int32Array(1024);
  private twinTop = 0;

  constructor(board: Board, useCrosses = true) {
    this.board = board;
    const rules = board.rules;
    const anySuit = rules.build === 'any-suit';
    for (let c = 0; c < 52; c++) this.groupOf[c] = anySuit ? cardRank(c) : cardRank(c) * 2 + cardColour(c);
    this.groupCount = anySuit ? 13 : 26;
    this.slotGroups = board.twins && rules.build === 'any-suit';
    if (rules.build === 'alternate-colors') for (let c = 0; c < 52; c++) this.twinOf[c] = makeCard(3 - cardSuit(c), cardRank(c));
    this.crosses = useCrosses && board.twinsInRuns && !rules.wrap;
  }

  /**
   * Finds the swappable pairs of the state (see above) and marks their cards, then the slot groups
   * (`findSlotGroups`), each of whose covered cards gets an entry after the pairs; returns the
   * number of entries. Notes `cardPile` and `cardIndex` of the cards involved (the only ones
   * `flip`, `Engine.mirror` and `arrangeSlotGroup` read).
   */
  findPairs(): number {
    const board = this.board;
    if (board.twinsInRuns) return this.findPairsInRuns();
    const H = board.maxHeight;
    const P = board.piles;
    const stamp = ++this.pairsAt;
    // The free cards of each group: pile tops (exposed) and cards under a run built on them (covered).
    const exposed = this.groupExposed;
    const covered = this.groupCovered;
    exposed.fill(0);
    covered.fill(0);
    for (let d = 0; d < P; d++) {
      const l = board.len[d]!;
      if (l === 0) continue;
      const b = d * H;
      const tg = this.groupOf[board.pile[b + l - 1]!]!;
      if (exposed[tg]! < 4) this.groupTopAt[tg * 4 + exposed[tg]!] = b + l - 1;
      exposed[tg]++;
      for (let i = l - 2; i >= 0 && board.fits[board.pile[b + i + 1]! * 64 + board.pile[b + i]!] === 1; i--) {
        const g = this.groupOf[board.pile[b + i]!]!;
        if (covered[g]! < 4) this.groupCoveredAt[g * 4 + covered[g]!] = b + i;
        covered[g]++;
      }
    }
    let n = 0;
    for (let d = 0; d < P; d++) {
      const l = board.len[d]!;
      if (l === 0) continue;
      const top = board.pile[d * H + l - 1]!;
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
    const board = this.board;
    const H = board.maxHeight;
    const stamp = ++this.pairsAt;
    const { pile, len, cardPile } = this.board;
    let n = 0;
    for (let d = 0; d < board.piles; d++) {
      const l = len[d]!;
      if (l === 0) continue;
      const top = pile[d * H + l - 1]!;
      const twin = this.twinOf[top]!;
      const q = cardPile[twin]!;
      if (q < 0 || board.cardIndex[twin] === len[q]! - 1) continue;
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
    const board = this.board;
    const c = board.pile[at]!;
    const H = board.maxHeight;
    board.cardPile[c] = (at / H) | 0;
    board.cardIndex[c] = at % H;
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
    const board = this.board;
    const p = board.cardPile[f]!;
    const i = board.cardIndex[f]!;
    return i + 1 < board.len[p]! ? board.pile[p * board.maxHeight + i + 1]! : -1;
  }

  /**
   * Puts slot group g in its one form: its covered cards' runs, ordered by their bottom cards, on
   * the group's free cards in card order, lowest first (so the highest free cards are tops). Each
   * step carries a run from a card of the group onto a top of the group, a legal move; the steps
   * are logged for undo as `canonicalize`'s swaps are, and described into `out` if given. Returns
   * how many steps it took.
   */
  private arrangeSlotGroup(g: number, out?: Move[]): number {
    const board = this.board;
    const H = board.maxHeight;
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
      const holder = board.pile[board.cardPile[k]! * H + board.cardIndex[k]! - 1]!;
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
    const board = this.board;
    if (out) out.push(this.describeSwap(under, onto));
    board.moveAbove(under, onto);
    this.twinLog[this.twinTop++] = onto | (under << 8);
    return 1;
  }

  /**
   * Turns pair j (by `findPairs` order) the other way, describing the swap into `out` if given;
   * returns the record `undo` needs: the card that took the run | the card it left << 8.
   */
  private flip(j: number, out?: Move[]): number {
    const board = this.board;
    const onto = this.pairExposed[j]!;
    const under = this.pairCovered[j]!;
    if (out) out.push(this.describeSwap(under, onto));
    board.moveAbove(under, onto);
    return onto | (under << 8);
  }

  /**
   * Puts the state in its one form: every swappable pair with the run on its lower card. Pushes a
   * record of each swap on the undo log (as `flip` returns it) and returns how many; describes the
   * swaps into `out` if given.
   */
  private canonicalize(out?: Move[]): number {
    const board = this.board;
    this.findPairs();
    const n = this.realPairs;
    let swaps = 0;
    for (let i = 0; i < n; i++) {
      const e = this.pairExposed[i]!;
      const c = this.pairCovered[i]!;
      if (e > c) continue;
      if (out) out.push(this.describeSwap(c, e));
      board.moveAbove(c, e);
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
    const board = this.board;
    // Every card's place is current (`twinsInRuns`).
    const H = board.maxHeight;
    const { pile, len, cardPile, cardIndex } = this.board;
    // The covered cards: the tableau's, less the pile tops.
    let lo = board.tabLo;
    let hi = board.tabHi;
    for (let p = 0; p < board.piles; p++) {
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
    const board = this.board;
    const H = board.maxHeight;
    const p = board.cardPile[a]!;
    const q = board.cardPile[b]!;
    const i = p * H + board.cardIndex[a]! + 1;
    const j = q * H + board.cardIndex[b]! + 1;
    const ka = p * H + board.len[p]! - i;
    const kb = q * H + board.len[q]! - j;
    const tmp = this.crossScratch;
    for (let x = 0; x < ka; x++) tmp[x] = board.pile[i + x]!;
    copyCards(board.pile, i, j, kb);
    for (let x = 0; x < ka; x++) board.pile[j + x] = tmp[x]!;
    board.len[p] += kb - ka;
    board.len[q] += ka - kb;
    for (let x = 0; x < kb; x++) {
      const c = board.pile[i + x]!;
      board.cardPile[c] = p;
      board.cardIndex[c] = board.cardIndex[a]! + 1 + x;
    }
    for (let x = 0; x < ka; x++) {
      const c = board.pile[j + x]!;
      board.cardPile[c] = q;
      board.cardIndex[c] = board.cardIndex[b]! + 1 + x;
    }
    if (board.keepsBits) {
      board.setBits(p, board.cardIndex[a]! + 1);
      board.setBits(q, board.cardIndex[b]! + 1);
    }
  }

  /**
   * The key of the state with its crossed twins in order (`orderCrosses`), the state itself left as
   * it is: what an engine without crosses compares with the key of one with them (solutions).
   */
  encodeOrdered(key: Uint32Array, codec: KeyCodec): number {
    const mark = this.twinTop;
    this.twinRoom(32);
    this.findPairs();
    this.orderCrosses();
    const words = codec.encode(key);
    while (this.twinTop > mark) {
      const record = this.twinLog[--this.twinTop]!;
      this.exchangeAbove(record & 255, (record >>> 8) & 255);
    }
    return words;
  }

  /** The public move of a twin swap: the cards above `under` onto `onto`. */
  private describeSwap(under: number, onto: number): Move {
    const board = this.board;
    const s = board.cardPile[under]!;
    const at = s * board.maxHeight + board.cardIndex[under]!;
    const count = s * board.maxHeight + board.len[s]! - at - 1;
    const tableau = (index: number) => ({ area: 'tableau' as const, index });
    return { kind: 'move', card: board.pile[at + 1]!, count, from: tableau(s), to: tableau(board.cardPile[onto]!) };
  }

  /**
   * Whether carrying the unit whose bottom card is `bottom`, lying on card `under`, onto top `t`
   * only turns a twin pair or rearranges a slot group: the same class (see the class comment).
   */
  isSwap(t: number, under: number, bottom: number): boolean {
    const board = this.board;
    if (this.pairStamp[t] === this.pairsAt && this.partner[t] === under) return true;
    const g = this.groupOf[t]!;
    return this.slotStamp[g] === this.pairsAt && this.groupOf[under] === g && board.fits[bottom * 64 + under] === 1;
  }

  /** Makes room in the twin log for `records` more (a move's flip, swaps, exchanges and header). */
  private twinRoom(records: number): void {
    if (this.twinTop + records <= this.twinLog.length) return;
    const grown = new Int32Array(2 * (this.twinLog.length + records));
    grown.set(this.twinLog);
    this.twinLog = grown;
  }

  /**
   * Makes move m of a twin game: its flip first, then the plain move, then the swaps that put the
   * state back in its one form (all logged for undo), describing them into `out` if given. Returns
   * what `undo` needs.
   */
  make(m: number, out?: Move[]): number {
    const board = this.board;
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
    if (out) out.push(...board.describe(plain));
    const info = board.makeMove(plain);
    this.pairsFresh = false;
    if (out) board.noteAutoFill(out, info);
    const swaps = this.canonicalize(out);
    this.twinLog[this.twinTop++] = flips | (swaps << 8);
    return flips + swaps !== 0 ? info | TWIN_BIT : info;
  }

  /** Undoes `make(m)`, which returned `info`. */
  undo(m: number, info: number): void {
    const board = this.board;
    this.pairsFresh = false;
    const header = this.twinLog[--this.twinTop]!;
    // Each record names the card that took a run and the card it came from: give it back, last first.
    if (header >>> 8 !== 0) {
      if (!board.twinsInRuns) board.indexTopRuns();
      for (let i = header >>> 8; i > 0; i--) {
        const record = this.twinLog[--this.twinTop]!;
        if ((record & CROSS_RECORD) !== 0) this.exchangeAbove(record & 255, (record >>> 8) & 255);
        else board.moveAbove(record & 255, record >>> 8);
      }
    }
    board.undoMove(m & ~(FLIP_MASK << FLIP_SHIFT), info & ~TWIN_BIT);
    if ((header & 255) !== 0) {
      if (!board.twinsInRuns) board.indexTopRuns();
      const record = this.twinLog[--this.twinTop]!;
      board.moveAbove(record & 255, record >>> 8);
    }
  }
}
