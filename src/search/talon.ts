import type { Card } from '../cards/card';
import { NO_RANK } from './table';

/** The number of bits set in a 32-bit integer. */
export function popCount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/**
 * Where dealing stops early (draw 1, rules 3 and 9 of docs/algorithms.md): the engine knows which
 * cards are safe to play or fit a pile top, the talon only where they lie.
 */
export interface DealingCut {
  cutsDealing(card: number): boolean;
}

/**
 * The stock and waste of one search, as one "talon": the waste bottom to top followed by the stock
 * in dealing order. Cards leave it only from the waste top, and a redeal keeps the order, so the
 * whole of stock and waste is the talon order, a removed flag per entry, the boundary `split`
 * (entries before it are the waste, after it the stock) and the redeals used.
 *
 * Dealing is never a move of its own (the "K+" stock, rule 1 of docs/algorithms.md): `list` finds
 * every card that dealing and redealing can bring to the waste top, and the engine offers each as a
 * move. This class owns that walk, the split's place in the key and its dominance order
 * (`passRank`, split classes), and rule 12's pruning of the list; it knows nothing of the tableau.
 */
export class Talon {
  /** The talon order: the waste bottom to top, then the stock, next card dealt first. */
  readonly cards: Uint8Array;
  readonly length: number;
  /** removed[i] = 1 when entry i has been played (it is home or in the tableau). */
  readonly removed: Uint8Array;
  /** Entries before the split are the waste, the rest the stock. */
  split = 0;
  redealsUsed = 0;
  /** Redeals allowed; -1 = unlimited. */
  readonly redealLimit: number;
  readonly draw: number;
  /**
   * Draw 1 with a redeal limit: the talon position (redeals used, split) is left out of the key
   * and given by `passRank` instead, a dominance order the table compares (see `passRank`).
   */
  readonly passDominance: boolean;
  /**
   * Draw more than 1 with unlimited redeals: the key holds the split only as its class (live waste
   * cards mod `draw`; a boundary split counts as class `draw - 1`), and `passRank` orders the
   * splits within a class, a dominance order the table compares (see `passRank`).
   */
  readonly splitDominance: boolean;
  /** Live (not removed) entries as bits, entries 0-31 and 32-63: `removed` as a mask. */
  private liveLo = 0;
  private liveHi = 0;

  // The candidates of the current node, filled by `list`: talon entries, and whether a redeal is
  // needed to bring each to the top.
  readonly candIdx = new Int32Array(64);
  readonly candRedeal = new Int32Array(64);
  candCount = 0;
  private readonly candStamp = new Int32Array(64);
  private stamp = 0;
  // Scratch of `dropCandidatesOf` (rule 12): the current list while the other split's is made.
  private readonly keptIdx = new Int32Array(64);
  private readonly keptRedeal = new Int32Array(64);

  constructor(waste: readonly Card[], stock: readonly Card[], draw: number, redealLimit: number, redealsUsed: number) {
    const cards = [...waste, ...stock.slice().reverse()];
    if (cards.length > 64) throw new Error(`internal: a talon of ${cards.length} cards (at most 64)`);
    this.cards = Uint8Array.from(cards);
    this.length = cards.length;
    this.removed = new Uint8Array(this.length);
    this.draw = draw;
    this.redealLimit = redealLimit;
    this.split = waste.length;
    this.redealsUsed = redealsUsed;
    this.passDominance = draw === 1 && redealLimit >= 0 && this.length > 0;
    this.splitDominance = draw > 1 && redealLimit < 0 && this.length > 0;
    // A table lane holds ranks up to 62 (`StateTable`); the boundary's is length + 1.
    if (this.splitDominance && this.length + 1 >= NO_RANK) throw new Error(`internal: a talon of ${this.length} cards is too long for the table's lanes`);
    this.setLive();
  }

  /**
   * A dominance order among the states that share a key (the table keeps the lowest rank met for
   * each key and skips a state met again at a rank no lower); 0 in games whose key holds the whole
   * state.
   *
   * With draw 1 and a redeal limit: how far through its passes of the stock the state is, redeals
   * used, then the split. Of two states that differ only there, the one of lower rank can deal (and
   * redeal) its way to the other, and dealing is free, so every waste card the other can reach it
   * reaches too, at a rank no higher; so it has every move of the other, each leading to the same
   * state at the same or a lower rank.
   *
   * With a larger draw and unlimited redeals ("split classes"): the live waste cards `w` when the
   * split is off a dealing boundary (the key holds the class `w mod draw`), and `length + 1` on a
   * boundary (w a multiple of `draw`, or the stock empty), whose key is that of class `draw - 1`.
   * The waste cards that dealing can bring to the top are w, w + draw, w + 2 draw, ..., the last
   * stock card, and those of a pass from the start (all that a state on a boundary reaches); so
   * of two states of one key, the one of lower rank reaches every card the other reaches, and
   * each of its moves leads to the same state (a waste card played) or to one of the same key at
   * the same lower rank (any other move leaves the talon as it is).
   */
  passRank(): number {
    if (this.passDominance) return this.redealsUsed * (this.length + 1) + this.split;
    if (this.splitDominance) return this.splitRank();
    return 0;
  }

  /**
   * Under split dominance, the rank of the split: the live waste cards `w` off a dealing boundary,
   * `boundaryRank` on one (w a multiple of `draw`, or the stock empty).
   */
  splitRank(): number {
    const w = this.liveBelow(this.split);
    return this.onBoundary(this.split, w) ? this.boundaryRank : w;
  }

  /** Whether split `split`, with `w` live waste cards, is on a dealing boundary: w a multiple of `draw`, or the stock empty. */
  private onBoundary(split: number, w: number): boolean {
    return w % this.draw === 0 || this.nextLive(split) < 0;
  }

  /** The rank of a split on a dealing boundary under split dominance: above every live waste count. */
  private get boundaryRank(): number {
    return this.length + 1;
  }

  /**
   * The split class of split rank `rank`: `rank mod draw` off a boundary; a split on a boundary
   * shares class `draw - 1` (see `passRank`).
   */
  splitClass(rank: number): number {
    return rank === this.boundaryRank ? this.draw - 1 : rank % this.draw;
  }

  /**
   * The table lane of a state of rank `rank` (`passRank`) under split dominance: its split class,
   * within the group of four classes the key holds (`KeyCodec.encode`, byte 3); -1 in the other
   * games, whose table entries have no lanes (docs/algorithms.md, "One entry for every split class").
   */
  laneOf(rank: number): number {
    return this.splitDominance ? this.splitClass(rank) & 3 : -1;
  }

  /**
   * The split as the key records it. With unlimited redeals, a state whose split falls on a
   * boundary of the dealing groups counted from the start of the talon (a multiple of `draw` cards
   * in the waste, or an empty stock) is the same state as its split at 0: dealing to the end and
   * redealing leads from it to split 0, and dealing from 0 leads back, with nothing else changed.
   * So both offer the same waste cards and lead to the same states, and the key writes 0. (With
   * draw 1 every split is such a boundary: the split never matters.) With a redeal limit the two
   * differ in redeals used, and the split is kept. (With a larger draw and unlimited redeals the key
   * holds less still, only the class of the split: see `passRank`.)
   */
  keySplit(): number {
    const split = this.split;
    if (this.redealLimit >= 0 || split === 0) return split;
    return this.onBoundary(split, this.liveBelow(split)) ? 0 : split;
  }

  /**
   * Under split dominance, the split of the state whose key holds split class group `group` (its
   * class divided by 4), whose removed flags are `removed` and whose rank is `rank`: 0 on a
   * boundary, else just after the `rank`-th live entry.
   */
  private splitFromKey(removed: Uint8Array, group: number, rank: number): number {
    if (this.splitClass(rank) >>> 2 !== group) throw new Error(`internal: rank ${rank} is not of the key's split classes ${4 * group}-${4 * group + 3}`);
    if (rank === this.boundaryRank) return 0;
    let seen = 0;
    for (let i = 0; i < this.length; i++) {
      if (removed[i] === 0 && ++seen === rank) return i + 1;
    }
    throw new Error(`internal: no ${rank} live talon cards`);
  }

  /**
   * The split of a state read back from its key (`KeyCodec.load`, `KeyCodec.decode`): under pass
   * dominance it is in the rank, under split dominance the key's split byte `keyByte` holds its
   * class and the rank says which split of it (`splitFromKey`), else the byte is the split.
   */
  splitOfKey(removed: Uint8Array, keyByte: number, rank: number): number {
    if (this.passDominance) return rank % (this.length + 1);
    if (this.splitDominance) return this.splitFromKey(removed, keyByte, rank);
    return keyByte;
  }

  /** The redeals used of a state read back from its key: under pass dominance in the rank, else `keyRedeals`, as the key says. */
  redealsOfKey(keyRedeals: number, rank: number): number {
    return this.passDominance ? Math.floor(rank / (this.length + 1)) : keyRedeals;
  }

  /** Puts the talon in the state read back from a key: its removed flags, split byte, redeals and rank. */
  restore(removed: Uint8Array, keyByte: number, keyRedeals: number, rank: number): void {
    this.removed.set(removed.subarray(0, this.length));
    this.setLive();
    this.split = this.splitOfKey(this.removed, keyByte, rank);
    this.redealsUsed = this.redealsOfKey(keyRedeals, rank);
  }

  /** The waste top for split `split`: the last live entry before it, or -1 (an empty waste). */
  wasteTopIndex(split: number): number {
    if (split > 32) {
      const hi = this.liveHi & (split >= 64 ? -1 : (1 << (split - 32)) - 1);
      if (hi !== 0) return 63 - Math.clz32(hi);
      split = 32;
    }
    const lo = this.liveLo & (split >= 32 ? -1 : (1 << split) - 1);
    return lo !== 0 ? 31 - Math.clz32(lo) : -1;
  }

  /** The first live entry at or after `from`, or -1. */
  private nextLive(from: number): number {
    if (from < 32) {
      const lo = this.liveLo & (-1 << from);
      if (lo !== 0) return 31 - Math.clz32(lo & -lo);
      from = 32;
    }
    if (from >= 64) return -1;
    const hi = this.liveHi & (-1 << (from - 32));
    return hi !== 0 ? 63 - Math.clz32(hi & -hi) : -1;
  }

  /** How many live entries lie before `split`: the waste's cards. */
  private liveBelow(split: number): number {
    if (split >= 32) return popCount(this.liveLo) + (split >= 64 ? popCount(this.liveHi) : popCount(this.liveHi & ((1 << (split - 32)) - 1)));
    return popCount(this.liveLo & ((1 << split) - 1));
  }

  /** Sets the live bits from `removed` (after `removed` was written whole). */
  private setLive(): void {
    this.liveLo = 0;
    this.liveHi = 0;
    for (let i = 0; i < this.length; i++) this.markLive(i, this.removed[i] === 0);
  }

  private markLive(i: number, live: boolean): void {
    if (i < 32) this.liveLo = live ? this.liveLo | (1 << i) : this.liveLo & ~(1 << i);
    else this.liveHi = live ? this.liveHi | (1 << (i - 32)) : this.liveHi & ~(1 << (i - 32));
  }

  /**
   * Plays entry idx, brought to the waste top by dealing (and a redeal, if `redeal`): the split
   * falls just after it. Returns its card.
   */
  take(idx: number, redeal: boolean): number {
    this.removed[idx] = 1;
    this.markLive(idx, false);
    if (redeal) this.redealsUsed++;
    this.split = this.wasteTopIndex(idx + 1) + 1;
    return this.cards[idx]!;
  }

  /** Undoes `take(idx, redeal)`, which found the split at `split`. */
  putBack(idx: number, redeal: boolean, split: number): void {
    this.removed[idx] = 0;
    this.markLive(idx, true);
    this.split = split;
    if (redeal) this.redealsUsed--;
  }

  /**
   * Fills candIdx/candRedeal with every entry that dealing can bring to the waste top, with
   * whether a redeal is needed: the current top, then a partial pass from the split, then (if a
   * redeal is allowed) one full pass from the start; further passes repeat that one. A card met
   * twice keeps its first, cheaper way (fewer redeals used dominates). With a `cut` (draw 1) the
   * list ends at the first card that ends dealing (rules 3 and 9).
   */
  list(cut: DealingCut | null): void {
    this.candCount = 0;
    if (this.length === 0) return;
    const stamp = ++this.stamp;
    const top = this.wasteTopIndex(this.split);
    if (top >= 0 && this.addCandidate(top, 0, stamp) && cut !== null && cut.cutsDealing(this.cards[top]!)) return;
    let pos = this.split;
    let redeal = 0;
    const startedAtZero = pos === 0;
    for (;;) {
      const next = this.dealFrom(pos);
      if (next > 0) {
        pos = next;
        if (this.addCandidate(next - 1, redeal, stamp) && cut !== null && cut.cutsDealing(this.cards[next - 1]!)) return;
        continue;
      }
      // Stock empty: redeal once if allowed, useful, and not a repeat of a pass already made.
      if (redeal === 1 || startedAtZero) break;
      if (this.redealLimit >= 0 && this.redealsUsed >= this.redealLimit) break;
      if (this.wasteTopIndex(pos) < 0) break;
      redeal = 1;
      pos = 0;
    }
  }

  /**
   * Rule 12 (docs/algorithms.md): under split dominance, drops from the candidates every entry
   * that this state with its split at rank `rank` also reaches by dealing. The caller knows
   * that state to be lost (the table proved it lost at that rank), and playing a waste card leads
   * to the same state whichever split it was dealt from (the split then falls just after the card;
   * redeals are not part of the state), so each dropped move leads to a lost state.
   */
  dropCandidatesOf(rank: number): void {
    const n = this.candCount;
    for (let i = 0; i < n; i++) {
      this.keptIdx[i] = this.candIdx[i]!;
      this.keptRedeal[i] = this.candRedeal[i]!;
    }
    const split = this.split;
    this.split = this.splitFromKey(this.removed, this.splitClass(rank) >>> 2, rank);
    this.list(null);
    this.split = split;
    // `list` stamped the other split's entries with `stamp`: keep the others, in order.
    const stamp = this.stamp;
    let k = 0;
    for (let i = 0; i < n; i++) {
      const idx = this.keptIdx[i]!;
      if (this.candStamp[idx] === stamp) continue;
      this.candIdx[k] = idx;
      this.candRedeal[k] = this.keptRedeal[i]!;
      k++;
    }
    this.candCount = k;
  }

  /**
   * Rule 12 across split classes (docs/algorithms.md): drops from the candidates every entry
   * that a pass of deals from the start of the talon brings to the top, the live entries `draw`,
   * `2 draw`, ... and the last. Every split reaches those, so the same state at a split of another
   * class, which the caller knows to be lost, reaches them too, and playing one leads where it leads.
   */
  dropFirstPassCards(): void {
    const d = this.draw;
    let k = 0;
    for (let i = 0, n = this.candCount; i < n; i++) {
      const idx = this.candIdx[i]!;
      if ((this.liveBelow(idx) + 1) % d === 0 || this.nextLive(idx + 1) < 0) continue;
      this.candIdx[k] = idx;
      this.candRedeal[k] = this.candRedeal[i]!;
      k++;
    }
    this.candCount = k;
  }

  /**
   * One deal from split `split`: the split after dealing up to `draw` cards (just after the
   * last card dealt, which is then the waste top), or 0 when the stock is empty.
   */
  dealFrom(split: number): number {
    let last = -1;
    for (let dealt = 0, p = split; dealt < this.draw; dealt++) {
      p = this.nextLive(p);
      if (p < 0) break;
      last = p++;
    }
    return last + 1;
  }

  /** Adds entry idx to the candidates unless already there; whether it was added. */
  private addCandidate(idx: number, redeal: number, stamp: number): boolean {
    if (this.candStamp[idx] === stamp) return false;
    this.candStamp[idx] = stamp;
    this.candIdx[this.candCount] = idx;
    this.candRedeal[this.candCount] = redeal;
    this.candCount++;
    return true;
  }
}
