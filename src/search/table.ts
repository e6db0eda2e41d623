/**
 * The transposition table: every state the search has entered, keyed by its whole packed key.
 *
 * Open addressing with linear probing over one Int32Array of two-word slots, so that a probe
 * touches one cache line:
 *   slots[2i]      offset of the entry in the arena, plus 1 (0 = empty slot)
 *   slots[2i + 1]  the key's 32-bit hash, so most probes are decided without touching the arena
 * The arena is one Uint32Array of entries [length, rank, word 0, word 1, ...]. A hit compares the
 * whole key, never just the hash: two states can share a hash but never an entry, so a collision
 * can never make the search skip a state it has not seen (and so never wrongly report "unwinnable").
 *
 * The rank is a dominance order among states that share a key (the engine's `passRank`: how far
 * through its passes of the stock a state is, or with a larger draw and unlimited redeals how many
 * cards its waste holds; 0 in games where the key says everything). A state
 * of lower rank can do everything one of higher rank can, so a key met again at the same or a
 * higher rank is PRESENT, and met at a lower rank it is entered again (INSERTED) with the lower
 * rank stored. Ranks only fall, so every key is entered a bounded number of times.
 *
 * The slots and the arena start small (an easy deal clears a few KiB, not the whole budget) and
 * double while what is in use fits in `maxBytes`: the slots of the current size and the arena's
 * words. When nothing more fits, `insert` answers FULL and the search stops with unknown. A `clear`
 * keeps the arena whatever its size, and the slots, when they double, are rehashed into the array
 * they last grew out of whenever it is big enough, so a solver that goes on to its next deal (one
 * per worker in a win-rate run) writes into pages the system has already handed out, and takes
 * fresh ones only for a search bigger than any before (docs/algorithms.md, "The transposition
 * table").
 *
 * Restarts that keep what they proved (docs/algorithms.md, "Restarts that keep their proofs"): each
 * entry's first word also holds a status (OPEN while its state is being searched, then PROVEN when
 * it is proved lost, or PENDING when its proof leans on a state that was still open) and the run
 * (`epoch`) that entered it. `newRun` starts a run without clearing: a PROVEN entry stays, and the
 * others of an earlier run count as absent, so meeting one enters it again (INSERTED).
 */
export const INSERTED = 0;
export const PRESENT = 1;
export const FULL = 2;

/** Entry statuses (see above). */
export const OPEN = 0;
export const PROVEN = 1;
export const PENDING = 2;
const LENGTH_MASK = 0xff;
const STATUS_SHIFT = 8;
const EPOCH_SHIFT = 10;
const MAX_EPOCH = (1 << 22) - 1;

const INITIAL_SLOTS = 1 << 14;
const INITIAL_ARENA_WORDS = 1 << 16;
/** The most slots `clear` keeps (see there). */
const KEPT_SLOTS = 1 << 16;
/** Arena offsets live in Int32 slots (plus 1), so the arena holds fewer words than 2^31. */
const MAX_ARENA_WORDS = 2 ** 31 - 2;

export function hashKey(key: Uint32Array, length: number): number {
  let h = 0x811c9dc5 ^ length;
  for (let i = 0; i < length; i++) {
    h = Math.imul(h ^ key[i]!, 0x9e3779b1);
    h ^= h >>> 15;
  }
  h = Math.imul(h ^ (h >>> 13), 0x85ebca6b);
  return (h ^ (h >>> 16)) >>> 0;
}

export class StateTable {
  /** The slots in use are the first 2 * (mask + 1) words (the array may be longer: see above). */
  private slots = new Int32Array(2 * INITIAL_SLOTS);
  /** The array the slots last grew out of, kept to grow into again. */
  private spare = new Int32Array(0);
  private arena = new Uint32Array(INITIAL_ARENA_WORDS);
  private arenaUsed = 0;
  private mask = INITIAL_SLOTS - 1;
  /** Entries stored. */
  count = 0;
  /** Arena offset of the entry the last `insert` added (INSERTED) or found (PRESENT). */
  lastOffset = 0;
  /**
   * When the last `insert` entered a PROVEN entry again, at a lower rank: the rank it was proved
   * lost at (its state at that rank is lost); otherwise -1. See docs/algorithms.md, rule 12.
   */
  lostRank = -1;
  /** The run entries are entered in now (see `newRun`). */
  private epoch = 0;
  maxBytes: number;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  /** Bytes the table holds now: its slots and the arena words in use (see above). */
  get bytes(): number {
    return this.slotBytes + this.arenaUsed * 4;
  }

  private get slotBytes(): number {
    return 8 * (this.mask + 1);
  }

  /**
   * Empties the table. It keeps the slot count the last search grew to, up to KEPT_SLOTS (a few
   * hundred KiB to clear), so that a run of small deals does not grow them again from the start for
   * every deal; past that they start again small. The arrays themselves are kept whatever their size
   * (see above): only the slots now in use are cleared, and the arena needs no clearing.
   */
  clear(): void {
    if (this.mask + 1 > KEPT_SLOTS) this.mask = INITIAL_SLOTS - 1;
    this.slots.fill(0, 0, 2 * (this.mask + 1));
    this.arenaUsed = 0;
    this.count = 0;
    this.epoch = 0;
  }

  /**
   * Starts another run over the same table: PROVEN entries stay (their states are lost whichever
   * run meets them), every other entry of an earlier run counts as absent. Returns false when the
   * run count has used up the epoch bits (the caller then clears the table instead).
   */
  newRun(): boolean {
    if (this.epoch === MAX_EPOCH) return false;
    this.epoch++;
    return true;
  }

  statusAt(off: number): number {
    return (this.arena[off]! >>> STATUS_SHIFT) & 3;
  }

  setStatus(off: number, status: number): void {
    this.arena[off] = (this.arena[off]! & ~(3 << STATUS_SHIFT)) | (status << STATUS_SHIFT);
  }

  /**
   * Adds the key with its rank unless it is present with the same or a lower rank (PRESENT); a
   * present key of higher rank takes the new rank. Returns INSERTED, PRESENT or FULL.
   */
  insert(key: Uint32Array, length: number, rank = 0): number {
    const hash = hashKey(key, length) | 0;
    const mask = this.mask;
    let i = hash & mask;
    const slots = this.slots;
    const arena = this.arena;
    for (;;) {
      const at = slots[2 * i]!;
      if (at === 0) break;
      if (slots[2 * i + 1] === hash) {
        const off = at - 1;
        const head = arena[off]!;
        if ((head & LENGTH_MASK) === length) {
          let k = 0;
          while (k < length && arena[off + 2 + k] === key[k]) k++;
          if (k === length) {
            this.lastOffset = off;
            const stale = head >>> EPOCH_SHIFT !== this.epoch && ((head >>> STATUS_SHIFT) & 3) !== PROVEN;
            if (!stale && arena[off + 1]! <= rank) return PRESENT;
            this.lostRank = ((head >>> STATUS_SHIFT) & 3) === PROVEN ? arena[off + 1]! : -1;
            // Entered again, at a lower rank or in a later run than an unproved entry: the same
            // entry, so `count` stays (ranks are 0 in the tableau-only games, whose best-first
            // search numbers entries by `count`, and which never keep a table between runs).
            arena[off] = length | (this.epoch << EPOCH_SHIFT);
            arena[off + 1] = rank;
            return INSERTED;
          }
        }
      }
      i = (i + 1) & mask;
    }
    const need = this.arenaUsed + length + 2;
    if (need * 4 + this.slotBytes > this.maxBytes) return FULL;
    if (need > this.arena.length) this.growArena(need);
    if ((this.count + 1) * 4 > (this.mask + 1) * 3 && this.growSlots()) {
      i = hash & this.mask;
      while (this.slots[2 * i] !== 0) i = (i + 1) & this.mask;
    } else if ((this.count + 1) * 10 > (this.mask + 1) * 9) {
      // Past 3/4 full the slots double; when the budget has no room for that, they fill to 9/10
      // (longer probes, but the search goes on) before the table is full.
      return FULL;
    }
    const off = this.arenaUsed;
    this.lostRank = -1;
    this.arena[off] = length | (this.epoch << EPOCH_SHIFT);
    this.arena[off + 1] = rank;
    for (let k = 0; k < length; k++) this.arena[off + 2 + k] = key[k]!;
    this.arenaUsed += length + 2;
    this.slots[2 * i] = off + 1;
    this.slots[2 * i + 1] = hash;
    this.count++;
    this.lastOffset = off;
    return INSERTED;
  }

  /** The arena offset of every entry, in the order they were entered (for tests and diagnostics). */
  offsets(): number[] {
    const out: number[] = [];
    for (let off = 0; off < this.arenaUsed; off += (this.arena[off]! & LENGTH_MASK) + 2) out.push(off);
    return out;
  }

  /** The rank stored with the entry at arena offset `off`. */
  rankAt(off: number): number {
    return this.arena[off + 1]!;
  }

  /** Copies the key of the entry at arena offset `off` into `key` and returns its length in words. */
  keyAt(off: number, key: Uint32Array): number {
    const length = this.arena[off]! & LENGTH_MASK;
    for (let k = 0; k < length; k++) key[k] = this.arena[off + 2 + k]!;
    return length;
  }

  /** Makes room for `words` arena words (within the budget, which `insert` checked), doubling. */
  private growArena(words: number): void {
    const arena = new Uint32Array(Math.min(MAX_ARENA_WORDS, Math.max(words, 2 * this.arena.length)));
    arena.set(this.arena.subarray(0, this.arenaUsed));
    this.arena = arena;
  }

  private growSlots(): boolean {
    const capacity = 2 * (this.mask + 1);
    if (this.arenaUsed * 4 + capacity * 8 > this.maxBytes) return false;
    let slots = this.spare;
    if (slots.length >= 2 * capacity) slots.fill(0, 0, 2 * capacity);
    else slots = new Int32Array(2 * capacity);
    const mask = capacity - 1;
    const old = this.slots;
    for (let j = 0, end = 2 * (this.mask + 1); j < end; j += 2) {
      const at = old[j]!;
      if (at === 0) continue;
      const h = old[j + 1]!;
      let i = h & mask;
      while (slots[2 * i] !== 0) i = (i + 1) & mask;
      slots[2 * i] = at;
      slots[2 * i + 1] = h;
    }
    this.spare = old;
    this.slots = slots;
    this.mask = mask;
    return true;
  }
}
