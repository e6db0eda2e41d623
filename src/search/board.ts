import { type Card, cardSuit, makeCard } from '../cards/card';
import type { Move, Place } from '../rules/move';
import { rankAtOrder } from '../rules/order';
import type { Position } from '../rules/position';
import { autoFillsFromReserve, type Rules } from '../rules/rules';
import { cardTables } from './card-tables';
import { Talon } from './talon';
import {
  AUTO_FILL_BIT,
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
  REDEAL_BIT,
} from './move-code';

/** Who may fill an empty tableau pile, as bit flags, worked out once from the rules. */
export const FILL_TABLEAU = 1;
export const FILL_RESERVE = 2;
export const FILL_WASTE = 4;
export const FILL_FOUNDATION = 8;

/**
 * Copies k cards within the piles' array from `from` to `to` (ranges in different piles, or `to`
 * below `from`): a loop, cheaper than `copyWithin` for the few cards a move carries.
 */
export function copyCards(a: Uint8Array, to: number, from: number, k: number): void {
  for (let i = 0; i < k; i++) a[to + i] = a[from + i]!;
}

/** The choice bits a pile's `pileBits` holds (see there): at most 24, so that they fit beside a partly filled key word. */
export const BITS_KEPT = 24;

/** Each card code's suit (`cardSuit`, looked up rather than divided on the hot paths). */
export const SUIT_OF = Uint8Array.from({ length: 64 }, (_, c) => cardSuit(c));

/**
 * The position of one search held in typed arrays, with the tables the rules give (which card fits
 * on which, foundation order) and the plain moves made and undone in place. Move generation
 * (`Engine`, engine.ts), the twin classes (`TwinClasses`, twins.ts), the packed key (`KeyCodec`,
 * key.ts), the waits-for graph (`WaitsFor`, waits.ts) and rule 15's cards at hand (`AtHand`, hand.ts)
 * work on it.
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
export class Board {
  readonly rules: Rules;
  readonly ranks: number;
  readonly piles: number;
  readonly maxHeight: number;
  readonly baseRank: number;
  // The rules' card tables (`CardTables`, card-tables.ts), shared read-only with other boards.
  /** Order of each card above its foundation's base (0 = base rank), by card code. */
  readonly order: Int8Array;
  /** fits[c * 64 + t]: card c may be built on card t on the tableau. */
  readonly fits: Uint8Array;
  /** builders[t * 4 ..]: the cards that may be built on card t (at most 4), 255 past the last. */
  readonly builders: Uint8Array;

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
  /** Whether some pile has become empty or stopped being empty since the key's pile order was sorted (`KeyCodec`). */
  orderStale = true;
  /** The game has only a tableau (the Canister family): a key alone gives the whole state back. */
  readonly tableauOnly: boolean;
  /** The next and the previous card of each card's suit in foundation order (255: none). */
  readonly succOf: Uint8Array;
  readonly predOf: Uint8Array;
  /**
   * Every pile is always a built run (piles dealt one card each, which only grow by building and by
   * filling a space with a card or a run): the key then holds each pile as its length, its bottom
   * card and, for each card above, which of the cards that may be built on the one below it is, in
   * `choiceBits` bits (docs/algorithms.md, "The packed key"). 0 bits in rule-9 games, where only
   * one card fits on each.
   */
  readonly runKeys: boolean;
  readonly choiceBits: number;
  /** choiceOf[c]: the place of card c among the builders of any card it may be built on. */
  readonly choiceOf: Uint8Array;
  /** Whether the game swaps twins (`TwinClasses`): alternating colours or any suit, runs move, no wrap. */
  readonly twins: boolean;
  /**
   * Twins in games whose piles are always built runs, groups of two (`TwinClasses.findPairsInRuns`). There every
   * change to the piles keeps `cardPile` and `cardIndex` of every card up to date (-1: not in the
   * tableau), so pairs and crosses are read off without a pass over the tableau.
   */
  readonly twinsInRuns: boolean;
  /** Where `twinsInRuns`: the cards in the tableau, as a 64-bit set (cards 0-31, 32-63). */
  tabLo = 0;
  tabHi = 0;
  /** Whether the moves keep `pileBits` (games with run keys and choices). */
  readonly keepsBits: boolean;
  /**
   * Each pile's choices (see `choiceOf`) as the key packs them: the card at index i (from 1) in
   * bits (i - 1) * choiceBits on, for the cards that fit in the low BITS_KEPT bits. Without wrap a
   * run (at most 13 cards) always fits; a longer pile (round the corner) is read card by card.
   */
  pileBits = new Int32Array(0);
  // Where each free card is (pile tops and the runs under them), valid from `TwinClasses.findPairs`
  // or `indexTopRuns` until a move; where `twinsInRuns`, where every card is, always.
  readonly cardPile = new Int32Array(64);
  readonly cardIndex = new Int32Array(64);
  /**
   * Only whole piles move, foundation cards never come back and builds are not in suit (Hoyle
   * Canfield): a card on a pile is uncovered only when every card above it has gone home, so a card
   * can be made to wait for itself (rule 10 of docs/algorithms.md; `WaitsFor`, waits.ts, reads the
   * two arrays below).
   */
  readonly noBurial: boolean;
  /**
   * Under `noBurial`: the card directly under each tableau card, 255 for a pile's bottom card and for
   * a card not in the tableau; and `covered[c]` 1 when a card lies on tableau card c. Kept by every
   * change to the piles (`push`, `pop`, `moveTop`; `placeAll` sets them afresh), so that the
   * waits-for graph needs no pass over the tableau.
   */
  readonly underOf = new Uint8Array(64).fill(255);
  readonly covered = new Uint8Array(64);

  constructor(position: Position, useTwins = true) {
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

    const tables = cardTables(rules, position.baseRank);
    this.order = tables.order;
    this.fits = tables.fits;
    this.builders = tables.builders;
    this.succOf = tables.succOf;
    this.predOf = tables.predOf;
    this.choiceOf = tables.choiceOf;
    this.pile = new Uint8Array(this.piles * this.maxHeight);
    this.len = new Int32Array(this.piles);
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
    this.twins = useTwins && Board.twinsApply(rules);
    // In suit a build only ever puts a lower card on a higher one, which buries nothing.
    this.noBurial = rules.move === 'whole-pile' && !this.foundationToTableau && rules.build !== 'same-suit';
    const most = tables.mostBuilders;
    this.choiceBits = most <= 1 ? 0 : most === 2 ? 1 : 2;
    this.runKeys =
      tables.choicesConsistent &&
      rules.pileCards !== 'all' &&
      rules.pileCards <= 1 &&
      position.tableau.every((cards) => cards.every((c, i) => i === 0 || this.fits[c * 64 + cards[i - 1]!] === 1));
    this.twinsInRuns = this.twins && this.runKeys && rules.build === 'alternate-colors';
    this.keepsBits = this.runKeys && this.choiceBits > 0;
    if (this.keepsBits) this.pileBits = new Int32Array(this.piles);
    this.placeAll();
  }

  /** Sets `underOf` and `covered` from the piles as they are. */
  private placeUnder(): void {
    this.underOf.fill(255);
    this.covered.fill(0);
    for (let p = 0; p < this.piles; p++) {
      for (let i = 0; i < this.len[p]!; i++) this.layAt(this.pile[p * this.maxHeight + i]!, p, i);
    }
  }

  /** Under `noBurial`: card c now lies at index n of pile p, on the card below it there if n > 0. */
  private layAt(c: number, p: number, n: number): void {
    if (n > 0) {
      const u = this.pile[p * this.maxHeight + n - 1]!;
      this.underOf[c] = u;
      this.covered[u] = 1;
    } else this.underOf[c] = 255;
  }

  private static twinsApply(rules: Rules): boolean {
    return (rules.build === 'alternate-colors' || rules.build === 'any-suit') && rules.move === 'runs' && !rules.wrap;
  }

  isWon(): boolean {
    return this.found[0]! + this.found[1]! + this.found[2]! + this.found[3]! === this.totalCards;
  }

  top(p: number): number {
    return this.pile[p * this.maxHeight + this.len[p]! - 1]!;
  }

  /** Length of the longest unit that may move off pile p (a run, the whole pile, or one card); 0 when none may. */
  maxUnit(p: number): number {
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

  // ---- what the moves keep -----------------------------------------------------------------------

  /**
   * Notes where the free cards are (`cardPile`, `cardIndex`): each pile's top run, the only cards
   * a swap moves or moves onto. `moveAbove` keeps it up to date.
   */
  indexTopRuns(): void {
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
  placeAll(): void {
    this.orderStale = true;
    if (this.noBurial) this.placeUnder();
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
  setBits(p: number, from: number): void {
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
    if (this.noBurial) {
      this.underOf[this.pile[p * this.maxHeight + n]!] = 255;
      if (n > 0) this.covered[this.pile[p * this.maxHeight + n - 1]!] = 0;
    }
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
  moveAbove(under: number, onto: number): void {
    const s = this.cardPile[under]!;
    this.moveTop(s, this.cardPile[onto]!, this.len[s]! - this.cardIndex[under]! - 1);
  }

  /**
   * Moves the top k cards of pile s onto pile d (a tableau move, its undo, a twin swap), keeping
   * what the moves keep: the pile order's staleness, the places of the cards moved (twin games,
   * where `cardPile` and `cardIndex` are read), the two piles' choices.
   */
  moveTop(s: number, d: number, k: number): void {
    const H = this.maxHeight;
    const ls = this.len[s]!;
    const ld = this.len[d]!;
    if (ld === 0 || ls === k) this.orderStale = true;
    copyCards(this.pile, d * H + ld, s * H + ls - k, k);
    this.len[s] = ls - k;
    this.len[d] = ld + k;
    if (this.noBurial) {
      // Only the unit's bottom card changes what lies under it, and the card it left uncovered.
      if (ls > k) this.covered[this.pile[s * H + ls - k - 1]!] = 0;
      this.layAt(this.pile[d * H + ld]!, d, ld);
    }
    if (this.twins) this.place(d, ld, k);
    if (this.keepsBits) {
      this.setBits(s, ls - k);
      this.setBits(d, ld);
    }
  }

  // ---- make / undo -------------------------------------------------------------------------------
  // Undo needs, besides the move: the talon split before a waste move, the card a tableau card to
  // foundation move took, and whether the reserve filled the emptied source pile. `makeMove`
  // returns them packed: split or card in the low byte | AUTO_FILL_BIT (| TWIN_BIT:
  // `TwinClasses.make`).

  private push(d: number, c: number): void {
    const n = this.len[d]!;
    if (n === 0) this.orderStale = true;
    this.pile[d * this.maxHeight + n] = c;
    this.len[d] = n + 1;
    if (this.noBurial) this.layAt(c, d, n);
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

  /** Makes plain move m (no twin flip or swap: see `TwinClasses.make`); returns what `undoMove` needs. */
  makeMove(m: number): number {
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

  undoMove(m: number, info: number): void {
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
   * waste card to the top, then the move itself. Without its twin flips and swaps
   * (`Engine.makeDescribed` gives the whole of a move, and the reserve's automatic fill).
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

  /** Notes on the last move of `out` the reserve card that filled the pile it emptied, if any. */
  noteAutoFill(out: Move[], info: number): void {
    const last = out[out.length - 1]!;
    if ((info & AUTO_FILL_BIT) !== 0 && last.kind === 'move' && last.from.area === 'tableau') {
      last.autoFill = { card: this.reserve[this.resCount]!, pile: last.from.index };
    }
  }
}
