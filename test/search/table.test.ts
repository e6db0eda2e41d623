import { describe, expect, it } from 'vitest';
import { FULL, INSERTED, NO_RANK, OPEN, PENDING, PRESENT, PROVEN, StateTable } from '../../src/search/table';

/** Key i: three words that differ for every i (and share most bits, so hashes do the work). */
function keyOf(i: number, key: Uint32Array): number {
  key[0] = i;
  key[1] = 0xabcdef;
  key[2] = i * 7;
  return 3;
}

describe('the transposition table', () => {
  it('keeps every key it accepts, within its budget, until it says FULL', () => {
    const maxBytes = 3 << 20;
    const table = new StateTable(maxBytes);
    const key = new Uint32Array(4);
    let accepted = 0;
    for (let i = 0; ; i++) {
      const status = table.insert(key, keyOf(i, key));
      if (status === FULL) break;
      expect(status).toBe(INSERTED);
      accepted++;
      expect(table.bytes).toBeLessThanOrEqual(maxBytes);
    }
    expect(table.count).toBe(accepted);
    // Every accepted key is still there, and one never inserted is not.
    for (let i = 0; i < accepted; i++) expect(table.insert(key, keyOf(i, key))).toBe(PRESENT);
    // The budget is used: the entries' arena words (5 each) fill two thirds of it. Stopping when
    // the slots could not double (at 3/4 of them) would keep it under 0.64.
    expect(accepted * 5 * 4).toBeGreaterThan(maxBytes * 0.65);
    // The arena passed from one segment to the next (an entry never straddles two): every entry is
    // listed once, in the order entered, with its own key.
    const offsets = table.offsets();
    expect(offsets.length).toBe(accepted);
    const back = new Uint32Array(4);
    offsets.forEach((off, i) => {
      expect(table.keyAt(off, back)).toBe(3);
      expect(Array.from(back.subarray(0, 3))).toEqual([i, 0xabcdef, i * 7]);
    });
  });

  it('adds the time it spends doubling its slots to the busy count it shares (the search clock counts it as search)', () => {
    const busy = { ms: 0 };
    const a = new StateTable(256 * 2 ** 20, busy);
    const b = new StateTable(256 * 2 ** 20, busy);
    const key = new Uint32Array(3);
    for (let i = 0; i < 200_000; i++) a.insert(key, keyOf(i, key));
    expect(busy.ms).toBeGreaterThan(0);
    const afterA = busy.ms;
    for (let i = 0; i < 200_000; i++) b.insert(key, keyOf(i, key));
    expect(busy.ms).toBeGreaterThan(afterA);
    expect(a.busy).toBe(busy);
    // A table's slots that never grow add nothing.
    const quiet = { ms: 0 };
    const c = new StateTable(256 * 2 ** 20, quiet);
    for (let i = 0; i < 100; i++) c.insert(key, keyOf(i, key));
    expect(quiet.ms).toBe(0);
  });

  it('lists every entry once after a clear, across segments written before with entries of another size', () => {
    const table = new StateTable(64 << 20);
    const key = new Uint32Array(5);
    const fill = (n: number, words: number) => {
      for (let i = 0; i < n; i++) {
        keyOf(i, key);
        key[3] = i;
        key[4] = i;
        expect(table.insert(key, words)).toBe(INSERTED);
      }
    };
    // 1 MiB segments (262,144 words): entries of 7 words, then of 6, cross several segment ends,
    // and the second fill's unused segment ends lie where the first wrote entries.
    fill(300_000, 5);
    table.clear();
    fill(300_000, 4);
    const offsets = table.offsets();
    expect(offsets.length).toBe(300_000);
    const back = new Uint32Array(4);
    for (const i of [0, 43_690, 43_691, 87_381, 87_382, 299_999]) {
      expect(table.keyAt(offsets[i]!, back)).toBe(4);
      expect(Array.from(back)).toEqual([i, 0xabcdef, i * 7, i]);
    }
  });

  it('gives back what it holds and does not use when trimmed, and fills again as before', () => {
    const table = new StateTable(64 << 20);
    const key = new Uint32Array(4);
    for (let i = 0; i < 300_000; i++) table.insert(key, keyOf(i, key));
    const full = table.heldBytes;
    expect(full).toBeGreaterThan(4 << 20);
    // A clear keeps the segments and slot arrays (for the next search); a trim gives them back.
    table.clear();
    expect(table.heldBytes).toBe(full);
    table.trim();
    expect(table.heldBytes).toBeLessThan(1 << 20);
    expect(table.heldBytes).toBe(table.bytes);
    for (let i = 0; i < 1000; i++) expect(table.insert(key, keyOf(i, key))).toBe(INSERTED);
    for (let i = 0; i < 1000; i++) expect(table.insert(key, keyOf(i, key))).toBe(PRESENT);
    // Trimmed with entries in it, it keeps them.
    table.trim();
    for (let i = 0; i < 1000; i++) expect(table.insert(key, keyOf(i, key))).toBe(PRESENT);
    expect(table.offsets().length).toBe(1000);
    // A first segment grown for an earlier search (1 MiB) holding a few entries now: trimmed to the
    // shortest size that holds them, and `trimmableBytes` says beforehand what a trim gives back.
    table.clear();
    for (let i = 0; i < 300_000; i++) table.insert(key, keyOf(i, key));
    table.clear();
    for (let i = 0; i < 1000; i++) expect(table.insert(key, keyOf(i, key))).toBe(INSERTED);
    const trimmable = table.trimmableBytes;
    expect(trimmable).toBeGreaterThan(4 << 20);
    const held = table.heldBytes;
    table.trim();
    expect(held - table.heldBytes).toBe(trimmable);
    expect(table.trimmableBytes).toBe(0);
    for (let i = 0; i < 1000; i++) expect(table.insert(key, keyOf(i, key))).toBe(PRESENT);
    // It grows again as before.
    for (let i = 1000; i < 100_000; i++) expect(table.insert(key, keyOf(i, key))).toBe(INSERTED);
    for (let i = 0; i < 100_000; i += 997) expect(table.insert(key, keyOf(i, key))).toBe(PRESENT);
  });

  it('starts its arena short and grows it with every entry kept, for a small search holds little', () => {
    const table = new StateTable(64 << 20);
    const key = new Uint32Array(5);
    keyOf(0, key);
    expect(table.insert(key, 5)).toBe(INSERTED);
    const slots = table.heldBytes - 16 * 1024;
    expect(slots).toBeGreaterThan(0);
    expect(slots).toBeLessThanOrEqual(256 * 1024);
    // Past the short first segment's sizes (16 KiB, 64 KiB, 256 KiB, 1 MiB) and into the next one.
    for (let i = 1; i < 40_000; i++) {
      keyOf(i, key);
      key[3] = i;
      expect(table.insert(key, 5, i % 7)).toBe(INSERTED);
    }
    const offsets = table.offsets();
    expect(offsets.length).toBe(40_000);
    const back = new Uint32Array(5);
    for (let i = 0; i < 40_000; i++) {
      keyOf(i, key);
      key[3] = i;
      expect(table.insert(key, 5, 9)).toBe(PRESENT);
      expect(table.keyAt(table.lastOffset, back)).toBe(5);
      expect(Array.from(back)).toEqual(Array.from(key));
      expect(table.rankAt(table.lastOffset)).toBe(i === 0 ? 0 : i % 7);
    }
  });

  it('enters a key again at a lower rank, never at the same or a higher one', () => {
    const table = new StateTable(1 << 20);
    const key = new Uint32Array(4);
    expect(table.insert(key, keyOf(1, key), 5)).toBe(INSERTED);
    expect(table.insert(key, keyOf(1, key), 5)).toBe(PRESENT);
    expect(table.insert(key, keyOf(1, key), 9)).toBe(PRESENT);
    expect(table.insert(key, keyOf(1, key), 2)).toBe(INSERTED);
    expect(table.insert(key, keyOf(1, key), 3)).toBe(PRESENT);
    expect(table.count).toBe(1);
  });

  it('keeps only the PROVEN entries for a later run; the others are entered again', () => {
    const table = new StateTable(1 << 20);
    const key = new Uint32Array(4);
    const offsets: number[] = [];
    for (let i = 0; i < 3; i++) {
      expect(table.insert(key, keyOf(i, key), 4)).toBe(INSERTED);
      offsets.push(table.lastOffset);
      expect(table.statusAt(table.lastOffset)).toBe(OPEN);
    }
    table.setStatus(offsets[0]!, PROVEN);
    table.setStatus(offsets[1]!, PENDING);
    // In the same run every entry is present, whatever its status, and a hit names its entry.
    for (let i = 0; i < 3; i++) {
      expect(table.insert(key, keyOf(i, key), 4)).toBe(PRESENT);
      expect(table.lastOffset).toBe(offsets[i]);
    }
    expect(table.newRun()).toBe(true);
    // The proven one stays (and is still entered again at a lower rank); the pending and open ones
    // are entered again, at any rank, in the same entry, as OPEN.
    expect(table.insert(key, keyOf(0, key), 6)).toBe(PRESENT);
    expect(table.insert(key, keyOf(1, key), 6)).toBe(INSERTED);
    expect(table.lastOffset).toBe(offsets[1]);
    expect(table.statusAt(offsets[1]!)).toBe(OPEN);
    expect(table.insert(key, keyOf(1, key), 6)).toBe(PRESENT);
    expect(table.insert(key, keyOf(2, key), 9)).toBe(INSERTED);
    expect(table.insert(key, keyOf(0, key), 3)).toBe(INSERTED);
    expect(table.statusAt(offsets[0]!)).toBe(OPEN);
    expect(table.count).toBe(3);
    // The key a status shares its word with is intact.
    const back = new Uint32Array(4);
    expect(table.keyAt(offsets[1]!, back)).toBe(3);
    expect(Array.from(back.subarray(0, 3))).toEqual([1, 0xabcdef, 7]);
    // Clearing starts the runs again.
    table.clear();
    expect(table.insert(key, keyOf(0, key))).toBe(INSERTED);
  });

  // Lanes (split dominance, docs/algorithms.md "One entry for every split class"): one entry holds a
  // state at up to four split classes, each lane with its own rank and status.
  it('keeps a rank and a status per lane of one entry', () => {
    const table = new StateTable(1 << 20);
    const key = new Uint32Array(4);
    expect(table.insert(key, keyOf(1, key), 7, 1)).toBe(INSERTED);
    const off = table.lastOffset;
    expect(table.insert(key, keyOf(1, key), 8, 2)).toBe(INSERTED);
    expect(table.lastOffset).toBe(off);
    expect(table.count).toBe(1);
    expect(table.lanesAt(off)).toBe(0b0110);
    expect([table.rankAt(off, 1), table.rankAt(off, 2), table.rankAt(off, 0)]).toEqual([7, 8, NO_RANK]);
    // Each lane is present at the same or a higher rank and entered again at a lower one.
    expect(table.insert(key, keyOf(1, key), 7, 1)).toBe(PRESENT);
    expect(table.insert(key, keyOf(1, key), 9, 2)).toBe(PRESENT);
    expect(table.insert(key, keyOf(1, key), 4, 2)).toBe(INSERTED);
    expect(table.rankAt(off, 2)).toBe(4);
    expect(table.rankAt(off, 1)).toBe(7);
    // Statuses are per lane; a proved lane tells the others (otherLost), and itself entered lower (lostRank).
    table.setStatus(off, PROVEN, 1);
    table.setStatus(off, PENDING, 2);
    expect([table.statusAt(off, 1), table.statusAt(off, 2), table.statusAt(off, 3)]).toEqual([PROVEN, PENDING, OPEN]);
    expect(table.insert(key, keyOf(1, key), 62, 3)).toBe(INSERTED);
    expect(table.otherLost).toBe(true);
    expect(table.lostRank).toBe(-1);
    expect(table.insert(key, keyOf(1, key), 2, 2)).toBe(INSERTED);
    expect(table.otherLost).toBe(true);
    expect(table.lostRank).toBe(-1);
    expect(table.insert(key, keyOf(1, key), 5, 1)).toBe(INSERTED);
    expect(table.lostRank).toBe(7);
    expect(table.otherLost).toBe(false);
    // The key beside the lanes is intact.
    const back = new Uint32Array(4);
    expect(table.keyAt(off, back)).toBe(3);
    expect(Array.from(back.subarray(0, 3))).toEqual([1, 0xabcdef, 7]);
  });

  it('forgets the lanes that are not PROVEN in a later run, and keeps the PROVEN ones', () => {
    const table = new StateTable(1 << 20);
    const key = new Uint32Array(4);
    for (const lane of [0, 1, 2]) expect(table.insert(key, keyOf(5, key), 10 + lane, lane)).toBe(INSERTED);
    const off = table.lastOffset;
    table.setStatus(off, PROVEN, 0);
    table.setStatus(off, PENDING, 1);
    expect(table.newRun()).toBe(true);
    // Touching lane 3 forgets lanes 1 and 2 (pending, open) and keeps lane 0 (proven).
    expect(table.insert(key, keyOf(5, key), 30, 3)).toBe(INSERTED);
    expect(table.otherLost).toBe(true);
    expect(table.lanesAt(off)).toBe(0b1001);
    expect(table.insert(key, keyOf(5, key), 10, 0)).toBe(PRESENT);
    expect(table.insert(key, keyOf(5, key), 40, 1)).toBe(INSERTED);
    expect(table.statusAt(off, 1)).toBe(OPEN);
    expect(table.insert(key, keyOf(5, key), 40, 1)).toBe(PRESENT);
    expect(table.count).toBe(1);
  });

  it('proves every lane of an entry at rank 0 at once (a state lost at every split), in this run and later ones', () => {
    const table = new StateTable(1 << 20);
    const key = new Uint32Array(4);
    expect(table.insert(key, keyOf(9, key), 12, 2)).toBe(INSERTED);
    const off = table.lastOffset;
    expect(table.insert(key, keyOf(8, key), 12, 2)).toBe(INSERTED);
    const other = table.lastOffset;
    table.proveEveryLane(off);
    expect(table.lanesAt(off)).toBe(0b1111);
    for (const lane of [0, 1, 2, 3]) {
      expect(table.statusAt(off, lane)).toBe(PROVEN);
      expect(table.rankAt(off, lane)).toBe(0);
    }
    // Present at every rank in every lane, now and in a later run; another key untouched.
    for (const lane of [0, 1, 2, 3]) for (const rank of [0, 1, 61]) expect(table.insert(key, keyOf(9, key), rank, lane)).toBe(PRESENT);
    expect(table.newRun()).toBe(true);
    for (const lane of [0, 1, 2, 3]) expect(table.insert(key, keyOf(9, key), 0, lane)).toBe(PRESENT);
    expect(table.lanesAt(other)).toBe(0b0100);
    expect(table.statusAt(other, 2)).toBe(OPEN);
    const back = new Uint32Array(4);
    expect(table.keyAt(off, back)).toBe(3);
    expect(Array.from(back.subarray(0, 3))).toEqual([9, 0xabcdef, 63]);
  });
});
