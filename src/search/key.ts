import { type Card, cardSuit } from '../cards/card';
import type { Position } from '../rules/position';
import { BITS_KEPT, type Board } from './board';

/** The key byte that holds the talon split (or, under split dominance, its class): see `encode`. */
export const KEY_SPLIT_BYTE = 3;

/** Room for any key, in 32-bit words: the longest (six header bytes, 16 piles holding all 52 cards) needs 19. */
export const MAX_KEY_WORDS = 64;

/** No card: an empty slot in the 6-bit card fields of the key. */
const NO_CARD = 63;

/**
 * The packed key of a board's state: what the transposition table stores and compares, whole, on
 * every hit. `encode` writes it, `load` and `decode` read it back. It holds the scratch that
 * reading needs and the piles' sorted order, kept between keys (`Board.orderStale`).
 */
export class KeyCodec {
  readonly board: Board;
  /** The piles sorted by bottom card (empty piles last), valid while `board.orderStale` is false. */
  private readonly pileOrder: Int32Array;
  /** Choices packed in one chunk of the key (`encode`): BITS_KEPT / choiceBits, or 0. */
  private readonly choicesPerChunk: number;
  private readonly keyCards = new Uint8Array(64);
  private readonly keyPile: Uint8Array;
  private readonly keyLen: Int32Array;
  private readonly keyRemoved = new Uint8Array(64);
  private keyView: Uint8Array = new Uint8Array(0);
  private keyWordsView: Uint32Array = new Uint32Array(0);

  constructor(board: Board) {
    this.board = board;
    this.pileOrder = new Int32Array(board.piles);
    this.keyPile = new Uint8Array(board.piles * board.maxHeight);
    this.keyLen = new Int32Array(board.piles);
    this.choicesPerChunk = board.choiceBits > 0 ? Math.floor(BITS_KEPT / board.choiceBits) : 0;
  }

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
    const board = this.board;
    const bytes = this.keyBytes(key);
    const f = board.found;
    bytes[0] = f[0]! | (f[1]! << 4);
    bytes[1] = f[2]! | (f[3]! << 4);
    bytes[2] = board.resCount;
    let n = 3;
    if (board.talon.length > 0) {
      if (board.talon.splitDominance) bytes[n++] = board.talon.splitClass(rank >= 0 ? rank : board.talon.splitRank()) >>> 2;
      else if (!board.talon.passDominance) bytes[n++] = board.talon.keySplit();
      if (board.talon.redealLimit >= 0 && !board.talon.passDominance) {
        bytes[n++] = board.talon.redealsUsed & 255;
        bytes[n++] = board.talon.redealsUsed >>> 8;
      }
      // No removed flags: a talon card is gone exactly when it is home or in the tableau, which the
      // rest of the key says (see `removedFromKey`).
    }
    const P = board.piles;
    const H = board.maxHeight;
    const ord = this.pileOrder;
    const pile = board.pile;
    const len = board.len;
    // The piles sorted by bottom card. A bottom changes only when a pile empties or an empty one
    // is filled (cards move onto tops, and leave from tops or as whole piles), so the order is kept
    // until then.
    if (board.orderStale) {
      board.orderStale = false;
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
    if (board.runKeys) {
      // Each pile is a built run: its length and bottom card, then one choice per card above.
      const bits = board.choiceBits;
      const choice = board.choiceOf;
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
          if (from === 1 && board.keepsBits) v = board.pileBits[p]!;
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
    const board = this.board;
    const bytes = this.keyBytes(key);
    void words;
    const f = board.found;
    f[0] = bytes[0]! & 15;
    f[1] = bytes[0]! >>> 4;
    f[2] = bytes[1]! & 15;
    f[3] = bytes[1]! >>> 4;
    board.resCount = bytes[2]!;
    const talon = board.talon;
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
    board.pile.set(this.keyPile);
    board.len.set(this.keyLen);
    board.placeAll();
    if (talon.length > 0) talon.restore(this.removedFromKey(f), split, redeals, rank);
  }

  /**
   * Reads the key's piles, from byte `at`, into `keyPile` and `keyLen` (the layout of `pile` and
   * `len`): each pile's length, then its cards; or, with run keys, the lengths and bottom cards,
   * then each card above a bottom as its place among the builders of the card under it.
   */
  private unpackTableau(bytes: Uint8Array, at: number): void {
    const board = this.board;
    const H = board.maxHeight;
    let n = at;
    if (!board.runKeys) {
      for (let p = 0; p < board.piles; p++) {
        const m = bytes[n++]!;
        this.keyLen[p] = m;
        for (let i = 0; i < m; i++) this.keyPile[p * H + i] = bytes[n++]!;
      }
      return;
    }
    // Lengths and bottom cards first, then the choices, in pile order.
    for (let p = 0; p < board.piles; p++) {
      const m = bytes[n++]!;
      this.keyLen[p] = m;
      if (m > 0) this.keyPile[p * H] = bytes[n++]!;
    }
    const bits = board.choiceBits;
    const mask = (1 << bits) - 1;
    let acc = 0;
    let nAcc = 0;
    for (let p = 0; p < board.piles; p++) {
      for (let i = 1, m = this.keyLen[p]!; i < m; i++) {
        if (nAcc < bits) {
          acc |= bytes[n++]! << nAcc;
          nAcc += 8;
        }
        const t = this.keyPile[p * H + i - 1]!;
        this.keyPile[p * H + i] = board.builders[t * 4 + (acc & mask)]!;
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
    const board = this.board;
    const inTableau = this.keyCards;
    inTableau.fill(0);
    const H = board.maxHeight;
    for (let p = 0; p < board.piles; p++) {
      for (let i = 0; i < this.keyLen[p]!; i++) inTableau[this.keyPile[p * H + i]!] = 1;
    }
    const removed = this.keyRemoved;
    for (let i = 0; i < board.talon.length; i++) {
      const c = board.talon.cards[i]!;
      removed[i] = inTableau[c] === 1 || board.order[c]! < found[cardSuit(c)]! ? 1 : 0;
    }
    return removed;
  }

  /**
   * The position a key stands for, with the rank the table stored beside it (`passRank`; it gives
   * the talon split under pass or split dominance): the inverse of `encode`, up to the order of
   * tableau piles, which come back sorted by bottom card. Needs this engine's deal: its reserve and
   * talon order.
   */
  decode(key: Uint32Array, words: number, rank = 0): Position {
    const board = this.board;
    const bytes = new Uint8Array(key.buffer, key.byteOffset, words * 4);
    const foundations = [bytes[0]! & 15, bytes[0]! >>> 4, bytes[1]! & 15, bytes[1]! >>> 4];
    const resCount = bytes[2]!;
    let n = 3;
    const waste: Card[] = [];
    const stock: Card[] = [];
    const talon = board.talon;
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
      for (let i = 0; i < board.talon.length; i++) {
        if (removed[i] === 1) continue;
        (i < split ? waste : stock).push(board.talon.cards[i]!);
      }
      stock.reverse();
    }
    const tableau: Card[][] = [];
    const H = board.maxHeight;
    for (let p = 0; p < board.piles; p++) tableau.push(Array.from(this.keyPile.subarray(p * H, p * H + this.keyLen[p]!)));
    return {
      rules: board.rules,
      baseRank: board.baseRank,
      foundations,
      reserve: Array.from(board.reserve.subarray(0, resCount)),
      tableau,
      stock,
      waste,
      redealsUsed,
    };
  }

  private keyBytes(key: Uint32Array): Uint8Array {
    if (this.keyWordsView !== key) {
      this.keyWordsView = key;
      this.keyView = new Uint8Array(key.buffer, key.byteOffset, key.byteLength);
    }
    return this.keyView;
  }
}
