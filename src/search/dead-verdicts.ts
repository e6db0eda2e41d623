import { hashKey } from './table';
import { KEY_SPLIT_BYTE } from './key';

/**
 * The most verdicts kept: 1,024 entries of a Hoyle key (17 words) hold 68 KiB. Most repeats come
 * soon after the first (siblings and cousins that differ in the split), and a larger cache, though
 * it finds more, was slower: it pushes the table's slots out of the processor's caches
 * (docs/algorithms.md, rule 6, "Verdicts kept by the key without its split").
 */
const MAX_ENTRIES = 1 << 10;
/** Fewer than this many entries is not worth keeping: the cache is then off. */
const MIN_ENTRIES = 1 << 6;
/** The cache takes at most this fraction of the search's memory budget. */
const BUDGET_SHARE = 64;
/** A verdict's solve stamp takes the header word's top 24 bits. */
const MAX_STAMP = (1 << 24) - 1;

/** Word 0 of a key without its split byte (`KEY_SPLIT_BYTE`, a byte of word 0 in the platform's order). */
const SPLIT_MASK = (() => {
  const w = new Uint32Array(1);
  new Uint8Array(w.buffer)[KEY_SPLIT_BYTE] = 255;
  return ~w[0]! >>> 0;
})();

/** What `find` answers: no verdict kept, or the one kept. */
export const NO_VERDICT = -1;
export const LIVE = 0;
export const DEAD = 1;
/** Dead by the pile count (`DeadCheck.deadByCount`). */
export const DEAD_BY_COUNT = 2;

/**
 * The dead-state check's verdicts (rule 6), kept by the state's key without its split, for the
 * search of one deal (docs/algorithms.md, rule 6, "Verdicts kept by the key without its split").
 * With unlimited redeals the check reads nothing of the talon's order: every stock and waste card
 * is as free as the others, so states whose keys differ only in the split byte get the same
 * verdict, and a third or more of the states checked in a lost Hoyle deal repeat such a key.
 *
 * Direct-mapped: one entry a slot, the newer verdict in place of the older. An entry holds its
 * whole key (split byte cleared), compared word by word on every look-up, so a verdict is never
 * given from a hash alone. Each `begin` (a new deal, whose keys mean other cards) forgets every
 * verdict by a new stamp, without clearing the arrays. The arrays count against the search's
 * memory budget (`bytes`): at most 1/64 of it, and none below MIN_ENTRIES entries.
 */
export class DeadVerdicts {
  /** Entry i: data[i * stride] its header (stamp << 8 | key words << 2 | verdict), then the key. */
  private data = new Uint32Array(0);
  private mask = -1;
  private stride = 0;
  /** The longest key an entry holds, in words. */
  private maxWords = 0;
  private stamp = 0;
  /** The entry the last `find` looked at, for `keep` (-1: none). */
  private slot = -1;

  /** Bytes held: they count against the search's memory budget. */
  get bytes(): number {
    return this.data.byteLength;
  }

  /** Whether verdicts are kept for the current deal. */
  get on(): boolean {
    return this.mask >= 0;
  }

  /**
   * A new deal: every verdict kept so far is forgotten. Verdicts are kept when `maxWords` (the
   * game's longest key) is given and the budget has room for MIN_ENTRIES of them; else the arrays
   * are given back.
   */
  begin(maxWords: number | undefined, budgetBytes: number): void {
    this.slot = -1;
    let entries = 0;
    if (maxWords !== undefined) {
      const stride = maxWords + 1;
      const room = Math.floor(budgetBytes / BUDGET_SHARE / (stride * 4));
      entries = Math.min(MAX_ENTRIES, room >= MIN_ENTRIES ? 2 ** Math.floor(Math.log2(room)) : 0);
      if (entries > 0 && (entries * stride !== this.data.length || stride !== this.stride)) {
        this.data = new Uint32Array(entries * stride);
        this.stride = stride;
        this.stamp = 0;
      }
      this.maxWords = maxWords;
    }
    if (entries === 0) {
      this.data = new Uint32Array(0);
      this.mask = -1;
      return;
    }
    this.mask = entries - 1;
    if (this.stamp === MAX_STAMP) {
      this.data.fill(0);
      this.stamp = 0;
    }
    this.stamp++;
  }

  /** The verdict kept for the key's state (`key[0 .. words)`, any split), or NO_VERDICT. */
  find(key: Uint32Array, words: number): number {
    this.slot = -1;
    if (this.mask < 0 || words > this.maxWords) return NO_VERDICT;
    const w0 = key[0]!;
    key[0] = w0 & SPLIT_MASK;
    const at = (hashKey(key, words) & this.mask) * this.stride;
    this.slot = at;
    const data = this.data;
    const head = data[at]!;
    let found = head >>> 8 === this.stamp && ((head >>> 2) & 63) === words;
    for (let i = 0; found && i < words; i++) found = data[at + 1 + i] === key[i];
    key[0] = w0;
    return found ? head & 3 : NO_VERDICT;
  }

  /** Keeps `verdict` for the key the last `find` did not know. */
  keep(key: Uint32Array, words: number, verdict: number): void {
    const at = this.slot;
    if (at < 0) return;
    const data = this.data;
    data[at] = ((this.stamp << 8) | (words << 2) | verdict) >>> 0;
    data[at + 1] = key[0]! & SPLIT_MASK;
    for (let i = 1; i < words; i++) data[at + 1 + i] = key[i]!;
    this.slot = -1;
  }
}

/**
 * The longest key of a game's states, in words (`KeyCodec.encode`: at most six header bytes, a
 * length byte a pile and a byte a card), or undefined where the check's verdict depends on the
 * talon's order (a redeal limit) and is not kept.
 */
export function verdictKeyWords(piles: number, cards: number, talonCards: number, redealLimit: number): number | undefined {
  if (talonCards === 0 || redealLimit >= 0) return undefined;
  return Math.ceil((6 + piles + cards) / 4);
}
