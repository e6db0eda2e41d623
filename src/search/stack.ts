// The search stack's arrays (docs/algorithms.md, "The search"): one move list per stored ply and one
// entry per ply in each of the other arrays, grown by doubling and given back after a deep search.

/** A copy of `a` twice its length. */
export function grow(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/** Move-list entries kept for the stored plies of the path (4 MiB). */
export const MOVES_KEPT = 1 << 20;
/** The move list's first size (32 KiB: two states' worth of headroom); it doubles as the path needs. */
export const MOVES_START = 1 << 13;

/** The search stack's arrays (the Solver's fields of the same names), kept aside while another run has the Solver's. */
export interface StackArrays {
  moves: Int32Array<ArrayBuffer>;
  start: Int32Array<ArrayBuffer>;
  end: Int32Array<ArrayBuffer>;
  cursor: Int32Array<ArrayBuffer>;
  made: Int32Array<ArrayBuffer>;
  undoInfo: Int32Array<ArrayBuffer>;
  inverse: Int32Array<ArrayBuffer>;
  entryOf: Int32Array<ArrayBuffer>;
  laneOf: Int32Array<ArrayBuffer>;
  low: Int32Array<ArrayBuffer>;
  lostRank: Int32Array<ArrayBuffer>;
  otherLost: Int32Array<ArrayBuffer>;
}
/** The stack's arrays of one entry per ply (all but `moves`). */
export const PLY_FIELDS = ['start', 'end', 'cursor', 'made', 'undoInfo', 'inverse', 'entryOf', 'laneOf', 'low', 'lostRank', 'otherLost'] as const;

/** Bytes held by a search stack. */
export function stackBytesOf(s: StackArrays): number {
  return s.moves.byteLength + PLY_FIELDS.length * s.start.byteLength;
}

/** The plies of a fresh stack. */
const PLIES_START = 1 << 10;

/**
 * Gives a stack small arrays again, where a deep search grew them: past MOVES_KEPT moves or 65,536
 * plies, or past `keepBytes` in all (a share of a small memory budget, which a stack kept from an
 * earlier deal would otherwise take from the tables for good).
 */
export function shrink(s: StackArrays, keepBytes = Infinity): void {
  const big = stackBytesOf(s) > keepBytes;
  if (s.moves.length > MOVES_KEPT || (big && s.moves.length > MOVES_START)) s.moves = new Int32Array(MOVES_START);
  if (s.start.length > 1 << 16 || (big && s.start.length > PLIES_START)) for (const f of PLY_FIELDS) s[f] = new Int32Array(PLIES_START);
}

/** A fresh, small search stack. */
export function newStack(): StackArrays {
  const plies = Object.fromEntries(PLY_FIELDS.map((f) => [f, new Int32Array(PLIES_START)]));
  return { moves: new Int32Array(MOVES_START), ...plies } as StackArrays;
}
