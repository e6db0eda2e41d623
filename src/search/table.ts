/**
 * The transposition table: every state the search has entered, keyed by its whole packed key.
 *
 * Open addressing with linear probing over one Int32Array of two-word slots, so that a probe
 * touches one cache line:
 *   slots[2i]      offset of the entry in the arena, plus 1 (0 = empty slot)
 *   slots[2i + 1]  the key's 32-bit hash, so most probes are decided without touching the arena
 * The arena holds the entries [length, rank, word 0, word 1, ...], in segments of 1 MiB that are
 * added as needed and never copied (an offset names a segment and a place in it). A hit compares the
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
 * The slots start small (an easy deal clears a few KiB, not the whole budget) and double while
 * everything the table holds fits in `maxBytes`: both slot arrays (the one in use and the one it
 * last grew out of, kept to grow into) and the arena words in use. Nothing is held twice for a
 * copy, so `bytes` bounds the memory the table keeps. When nothing more fits, `insert` first gives
 * back the slot memory kept from earlier searches, then answers FULL and the search stops with
 * unknown. A `clear` keeps the arena's segments and the slot arrays, so a solver that goes on to
 * its next deal (one per worker in a win-rate run) writes into pages the system has already handed
 * out, and takes fresh ones only for a search bigger than any before (docs/algorithms.md, "The
 * transposition table").
 *
 * Restarts that keep what they proved (docs/algorithms.md, "Restarts that keep their proofs"): each
 * entry's first word also holds a status (OPEN while its state is being searched, then PROVEN when
 * it is proved lost, or PENDING when its proof leans on a state that was still open) and the run
 * (`epoch`) that entered it. `newRun` starts a run without clearing: a PROVEN entry stays, and the
 * others of an earlier run count as absent, so meeting one enters it again (INSERTED).
 *
 * Lanes (split dominance: a draw of more than one and unlimited redeals; docs/algorithms.md, "One
 * entry for every split class"): the key leaves the split's class out, and one entry holds the
 * state at up to four classes, each in its own byte ("lane") of the rank word: the lowest rank it
 * was entered at (6 bits, NO_RANK when never) and its status (2 bits). A lane is entered, found
 * present, proved and forgotten exactly as a whole entry is without lanes; the entry's epoch is the
 * last run that touched any lane, and a run that touches an entry of an earlier one first forgets
 * its lanes that are not PROVEN. A state entered at one class learns for free whether the same
 * state at another class was proved lost (`otherLost`). A state lost at every split (a dead one) is
 * proved in every lane at once, at rank 0 (`proveEveryLane`).
 */
import { cpuMs, stepMs } from './clock';

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
/** A lane's byte: rank in the low 6 bits (NO_RANK: the lane is empty), status in the top 2. */
const LANE_RANK = 0x3f;
export const NO_RANK = LANE_RANK;
const LANE_STATUS_SHIFT = 6;
/** The rank word of an entry with every lane empty. */
const EMPTY_LANES = 0x3f3f3f3f;
/** The low bit of each lane's status: with the high bit clear, the lane is PROVEN. */
const LANE_LOW_BITS = 0x40404040;
/** The rank word of an entry PROVEN in every lane at rank 0 (`proveEveryLane`). */
const EVERY_LANE_PROVEN = (PROVEN << LANE_STATUS_SHIFT) * 0x01010101;

const INITIAL_SLOTS = 1 << 14;
/**
 * The arena is a list of segments of this many words (1 MiB), allocated as the entries need them
 * and never copied: growing by copying held the old and the new array at once, so a table near its
 * budget took half as much again (Hoyle deal 793 at `--memory 1900`: 3.1 GB peak resident).
 */
const SEG_BITS = 18;
const SEG_WORDS = 1 << SEG_BITS;
const SEG_MASK = SEG_WORDS - 1;
/**
 * The first segment starts this short (16 KiB) and grows fourfold, copied, up to SEG_WORDS: most
 * deals enter a few thousand states, and zeroing a whole 1 MiB segment for each was a quarter of a
 * one-shot `solve()` of an easy deal (British Canister: 0.15 of 0.65 ms). Only segment 0 is ever
 * short, and it is grown before an entry would pass its end.
 */
const FIRST_SEG_WORDS = 1 << 12;
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
  /** The arena's segments (kept by `clear`); an entry never straddles two. */
  private segs: Uint32Array[] = [];
  /** Arena words in use, with the unused ends of filled segments: the offset of the next entry. */
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
  /**
   * In lanes, when the last `insert` entered its lane (INSERTED): whether another lane of the same
   * entry is PROVEN, so the same state at another split class is lost. See docs/algorithms.md.
   */
  otherLost = false;
  /** The run entries are entered in now (see `newRun`). */
  private epoch = 0;
  maxBytes: number;
  /**
   * Where the table adds the milliseconds of its long steps, doubling its slots or giving memory
   * back (a few seconds near a 2 GiB budget): they fall between two of the search's checks of its
   * limits, and the search clock counts them as search, not as a stopped process (src/search/clock.ts).
   * Tables of one solver share it.
   */
  readonly busy: { ms: number };

  /**
   * Called when the table is about to answer FULL (or its slots cannot double): the owner may give
   * back memory held elsewhere and raise `maxBytes` (the Solver trims its other tables: `trim`),
   * answering whether it did, and the table then looks again. Tables of one solver share the budget, and a table cleared for
   * another search keeps its segments, so without this a table left big by an earlier deal would
   * starve the others.
   */
  private readonly reclaim: (() => boolean) | undefined;

  constructor(maxBytes: number, busy: { ms: number } = { ms: 0 }, reclaim?: () => boolean) {
    this.maxBytes = maxBytes;
    this.busy = busy;
    this.reclaim = reclaim;
  }

  /**
   * Bytes the table holds now: its slot arrays (the one in use and the one kept to grow into, whole)
   * and the arena words in use. Nothing is ever held twice for a copy, so this bounds what the
   * table keeps in memory.
   */
  get bytes(): number {
    return this.slotBytes + this.arenaUsed * 4;
  }

  /**
   * Bytes the table keeps from the system: its slot arrays and every arena segment, in use or kept
   * by `clear` from an earlier search. A second table beside this one (rule 13's) must fit beside
   * all of it.
   */
  get heldBytes(): number {
    const segs = this.segs;
    return this.slotBytes + (segs.length === 0 ? 0 : segs[0]!.length + (segs.length - 1) * SEG_WORDS) * 4;
  }

  /** Bytes of both slot arrays: `countSlotBytes` after either changes. */
  private slotBytes = this.slots.byteLength + this.spare.byteLength;

  private countSlotBytes(): void {
    this.slotBytes = this.slots.byteLength + this.spare.byteLength;
  }

  /**
   * Whether `words` more arena words fit in the budget. Before saying no it gives back the slot
   * memory kept from earlier searches: the spare array, then the part of the slot array not in use.
   */
  private fits(words: number): boolean {
    const need = (this.arenaUsed + words) * 4;
    if (need + this.slotBytes <= this.maxBytes) return true;
    const started = performance.now();
    const startedCpu = cpuMs();
    this.spare = new Int32Array(0);
    const inUse = 2 * (this.mask + 1);
    if (this.slots.length > inUse) this.slots = this.slots.slice(0, inUse);
    this.countSlotBytes();
    if (need + this.slotBytes > this.maxBytes && this.reclaim) this.reclaim();
    this.busy.ms += stepMs(started, startedCpu);
    return need + this.slotBytes <= this.maxBytes;
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
   * Gives back what the table holds and does not use: the spare slot array, the slots past those in
   * use (all but the first few thousand when it is empty), the arena segments past the last entry
   * (after a `clear`, all of them), and the part of a short first segment past its entries; so
   * that another table of the same solver may have that memory (`trimmableBytes` says how much).
   * The entries stay where they are.
   */
  trim(): void {
    // An empty table's slots are all 0 already (a `clear` zeroes those in use): fewer need no rehash.
    if (this.count === 0) this.mask = INITIAL_SLOTS - 1;
    this.spare = new Int32Array(0);
    const inUse = 2 * (this.mask + 1);
    if (this.slots.length > inUse) this.slots = this.slots.slice(0, inUse);
    this.countSlotBytes();
    const segsInUse = this.segsInUse();
    this.segs.length = Math.min(this.segs.length, segsInUse);
    const need = this.firstSegNeed();
    if (segsInUse === 1 && this.segs[0]!.length > need) this.segs[0] = this.segs[0]!.slice(0, need);
  }

  /** The bytes `trim` would give back. */
  get trimmableBytes(): number {
    let bytes = this.spare.byteLength;
    const slotsKept = this.count === 0 ? 2 * INITIAL_SLOTS : 2 * (this.mask + 1);
    if (this.slots.length > slotsKept) bytes += (this.slots.length - slotsKept) * 4;
    const segsInUse = this.segsInUse();
    for (let i = segsInUse; i < this.segs.length; i++) bytes += this.segs[i]!.byteLength;
    if (segsInUse === 1) bytes += (this.segs[0]!.length - this.firstSegNeed()) * 4;
    return bytes;
  }

  /** The arena segments that hold entries: the first ones, up to the one the next entry goes in. */
  private segsInUse(): number {
    return this.arenaUsed === 0 ? 0 : ((this.arenaUsed - 1) >>> SEG_BITS) + 1;
  }

  /** The words a first segment that holds every entry needs: its shortest size (`growFirst`) past them. */
  private firstSegNeed(): number {
    let size = FIRST_SEG_WORDS;
    while (size < this.arenaUsed && size < SEG_WORDS) size *= 4;
    return size;
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

  /** The status of the entry at arena offset `off` (`lane` -1), or of its lane `lane` (lanes). */
  statusAt(off: number, lane = -1): number {
    const seg = this.segs[off >>> SEG_BITS]!;
    const at = off & SEG_MASK;
    if (lane >= 0) return (seg[at + 1]! >>> (8 * lane + LANE_STATUS_SHIFT)) & 3;
    return (seg[at]! >>> STATUS_SHIFT) & 3;
  }

  setStatus(off: number, status: number, lane = -1): void {
    const seg = this.segs[off >>> SEG_BITS]!;
    const at = off & SEG_MASK;
    if (lane >= 0) {
      const shift = 8 * lane + LANE_STATUS_SHIFT;
      seg[at + 1] = (seg[at + 1]! & ~(3 << shift)) | (status << shift);
    } else seg[at] = (seg[at]! & ~(3 << STATUS_SHIFT)) | (status << STATUS_SHIFT);
  }

  /**
   * Adds the key with its rank unless it is present with the same or a lower rank (PRESENT); a
   * present key of higher rank takes the new rank. Returns INSERTED, PRESENT or FULL. With `lane`
   * (0-3; split dominance) the rank and status are those of that lane of the key's entry.
   */
  insert(key: Uint32Array, length: number, rank = 0, lane = -1): number {
    const hash = hashKey(key, length) | 0;
    const mask = this.mask;
    let i = hash & mask;
    const slots = this.slots;
    const segs = this.segs;
    for (;;) {
      const at = slots[2 * i]!;
      if (at === 0) break;
      if (slots[2 * i + 1] === hash) {
        const off = at - 1;
        const arena = segs[off >>> SEG_BITS]!;
        const e = off & SEG_MASK;
        const head = arena[e]!;
        if ((head & LENGTH_MASK) === length) {
          let k = 0;
          while (k < length && arena[e + 2 + k] === key[k]) k++;
          if (k === length) {
            this.lastOffset = off;
            if (lane >= 0) return this.enterLane(arena, e, head, rank, lane);
            const stale = head >>> EPOCH_SHIFT !== this.epoch && ((head >>> STATUS_SHIFT) & 3) !== PROVEN;
            if (!stale && arena[e + 1]! <= rank) return PRESENT;
            this.lostRank = ((head >>> STATUS_SHIFT) & 3) === PROVEN ? arena[e + 1]! : -1;
            this.otherLost = false;
            // Entered again, at a lower rank or in a later run than an unproved entry: the same
            // entry, so `count` stays (ranks are 0 in the tableau-only games, whose best-first
            // search numbers entries by `count`, and which never keep a table between runs).
            arena[e] = length | (this.epoch << EPOCH_SHIFT);
            arena[e + 1] = rank;
            return INSERTED;
          }
        }
      }
      i = (i + 1) & mask;
    }
    // The new entry goes at the end of the arena, or at the start of the next segment when the
    // rest of this one is too short (its first word then reads 0: no entry).
    let off = this.arenaUsed;
    const words = length + 2;
    const rest = SEG_WORDS - (off & SEG_MASK);
    const skip = rest < words ? rest : 0;
    if (off + skip + words > MAX_ARENA_WORDS || !this.fits(skip + words)) return FULL;
    if ((this.count + 1) * 4 > (this.mask + 1) * 3 && this.growSlots(skip + words)) {
      i = hash & this.mask;
      while (this.slots[2 * i] !== 0) i = (i + 1) & this.mask;
    } else if ((this.count + 1) * 10 > (this.mask + 1) * 9) {
      // Past 3/4 full the slots double; when the budget has no room for that, they fill to 9/10
      // (longer probes, but the search goes on) before the table is full.
      return FULL;
    }
    if (skip > 0) {
      this.segs[off >>> SEG_BITS]![off & SEG_MASK] = 0;
      off += skip;
    }
    const seg = off >>> SEG_BITS;
    if (seg === this.segs.length) this.segs.push(new Uint32Array(seg === 0 ? FIRST_SEG_WORDS : SEG_WORDS));
    else if (seg === 0 && off + words > this.segs[0]!.length) this.growFirst(off + words);
    const arena = this.segs[seg]!;
    const e = off & SEG_MASK;
    this.lostRank = -1;
    this.otherLost = false;
    arena[e] = length | (this.epoch << EPOCH_SHIFT);
    arena[e + 1] = lane >= 0 ? (EMPTY_LANES & ~(0xff << (8 * lane))) | (rank << (8 * lane)) : rank;
    for (let k = 0; k < length; k++) arena[e + 2 + k] = key[k]!;
    this.arenaUsed = off + words;
    this.slots[2 * i] = off + 1;
    this.slots[2 * i + 1] = hash;
    this.count++;
    this.lastOffset = off;
    return INSERTED;
  }

  /**
   * `insert` for a key found at `arena[e]`, in lanes: its lane `lane` is PRESENT at the same or a
   * lower rank, else entered (OPEN) at `rank`. An entry last touched by an earlier run forgets its
   * lanes that are not PROVEN first.
   */
  private enterLane(arena: Uint32Array, e: number, head: number, rank: number, lane: number): number {
    let lanes = arena[e + 1]!;
    if (head >>> EPOCH_SHIFT !== this.epoch) {
      arena[e] = (head & ((1 << EPOCH_SHIFT) - 1)) | (this.epoch << EPOCH_SHIFT);
      for (let l = 0; l < 4; l++) {
        if (((lanes >>> (8 * l + LANE_STATUS_SHIFT)) & 3) !== PROVEN) lanes = (lanes & ~(0xff << (8 * l))) | (NO_RANK << (8 * l));
      }
      arena[e + 1] = lanes;
    }
    const shift = 8 * lane;
    const own = (lanes >>> shift) & 0xff;
    if ((own & LANE_RANK) <= rank) return PRESENT;
    this.lostRank = own >>> LANE_STATUS_SHIFT === PROVEN ? own & LANE_RANK : -1;
    this.otherLost = (lanes & LANE_LOW_BITS & ~(lanes >>> 1) & ~(0xff << shift)) !== 0;
    arena[e + 1] = (lanes & ~(0xff << shift)) | (rank << shift);
    return INSERTED;
  }

  /**
   * Lanes only: marks the entry at arena offset `off` PROVEN in every lane, at rank 0 (below every
   * rank), so that its state is present, and lost, whatever split it is met at again. For a state
   * lost at every split (a dead state, where the dead-state check reads nothing of the split).
   */
  proveEveryLane(off: number): void {
    this.segs[off >>> SEG_BITS]![(off & SEG_MASK) + 1] = EVERY_LANE_PROVEN;
  }

  /** The lanes of the entry at arena offset `off` that hold a rank (lanes only), as bits 0-3. */
  lanesAt(off: number): number {
    const lanes = this.segs[off >>> SEG_BITS]![(off & SEG_MASK) + 1]!;
    let mask = 0;
    for (let l = 0; l < 4; l++) if (((lanes >>> (8 * l)) & LANE_RANK) !== NO_RANK) mask |= 1 << l;
    return mask;
  }

  /** The arena offset of every entry, in the order they were entered (for tests and diagnostics). */
  offsets(): number[] {
    const out: number[] = [];
    for (let off = 0; off < this.arenaUsed; ) {
      const length = this.segs[off >>> SEG_BITS]![off & SEG_MASK]! & LENGTH_MASK;
      if (length === 0) {
        off = ((off >>> SEG_BITS) + 1) * SEG_WORDS;
        continue;
      }
      out.push(off);
      off += length + 2;
    }
    return out;
  }

  /** The rank stored with the entry at arena offset `off`, or in its lane `lane` (lanes). */
  rankAt(off: number, lane = -1): number {
    const word = this.segs[off >>> SEG_BITS]![(off & SEG_MASK) + 1]!;
    return lane >= 0 ? (word >>> (8 * lane)) & LANE_RANK : word;
  }

  /** Copies the key of the entry at arena offset `off` into `key` and returns its length in words. */
  keyAt(off: number, key: Uint32Array): number {
    const arena = this.segs[off >>> SEG_BITS]!;
    const e = off & SEG_MASK;
    const length = arena[e]! & LENGTH_MASK;
    for (let k = 0; k < length; k++) key[k] = arena[e + 2 + k]!;
    return length;
  }

  /** Makes the first segment (short, see FIRST_SEG_WORDS) hold at least `words` words. */
  private growFirst(words: number): void {
    const old = this.segs[0]!;
    let size = old.length * 4;
    while (size < words) size *= 4;
    const seg = new Uint32Array(Math.min(size, SEG_WORDS));
    seg.set(old.subarray(0, this.arenaUsed));
    this.segs[0] = seg;
  }

  /** Doubles the slots, if the budget holds them beside `pending` more arena words. */
  private growSlots(pending: number): boolean {
    const started = performance.now();
    const startedCpu = cpuMs();
    let grown = this.doubleSlots(pending);
    if (!grown && this.reclaim?.()) grown = this.doubleSlots(pending);
    this.busy.ms += stepMs(started, startedCpu);
    return grown;
  }

  private doubleSlots(pending: number): boolean {
    const capacity = 2 * (this.mask + 1);
    let slots = this.spare;
    if (slots.length >= 2 * capacity) slots.fill(0, 0, 2 * capacity);
    else {
      // A new array beside the one in use, which is kept to grow into next time.
      if ((this.arenaUsed + pending) * 4 + this.slots.byteLength + capacity * 8 > this.maxBytes) return false;
      slots = new Int32Array(2 * capacity);
    }
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
    this.countSlotBytes();
    this.mask = mask;
    return true;
  }
}
