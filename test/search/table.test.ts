import { describe, expect, it } from 'vitest';
import { FULL, INSERTED, PRESENT, StateTable } from '../../src/search/table';

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
});
