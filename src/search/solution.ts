import type { Move } from '../rules/move';
import type { Position } from '../rules/position';
import { Engine, MOVE_HEADROOM } from './engine';
import { MAX_KEY_WORDS } from './key';

// A win found by the search, turned into the moves a player makes: the internal moves replayed in a
// fresh engine from the user's position, each described as public moves (deals, redeals, twin
// swaps, automatic fills), and cards that only pass through a pile on their way home sent there
// directly.

/**
 * The public moves of a path of the depth-first search: internal moves `made[0 .. plies)` from
 * `position`, replayed in a fresh engine.
 */
export function pathMoves(position: Position, made: Int32Array, plies: number): Move[] {
  const engine = new Engine(position);
  const out: Move[] = [];
  if (!engine.crosses) {
    for (let ply = 0; ply < plies; ply++) engine.makeDescribed(made[ply]!, out);
    return out;
  }
  // Crossed twins are kept in order by exchanges that are no move of the game. So the path is
  // followed by an engine that makes no exchanges: at each step, the real move whose result has the
  // key of the next state, exchanges applied (docs/algorithms.md, rule 7, "crossed twins", says
  // why there is always one).
  const real = new Engine(position, 0, true, false);
  const moves = new Int32Array(MOVE_HEADROOM);
  const want = new Uint32Array(MAX_KEY_WORDS);
  const have = new Uint32Array(MAX_KEY_WORDS);
  for (let ply = 0; ply < plies; ply++) {
    engine.make(made[ply]!);
    const words = engine.encode(want);
    if (!stepWhere(real, moves, out, () => sameKey(have, real.encodeOrdered(have), want, words))) {
      throw new Error('internal: no real move for a step of the solution');
    }
  }
  return out;
}

/**
 * The public moves of a path of the best-first search, given as the keys of its states: from
 * `position`, for each of the `keyed` states after it, the move whose result has that state's key
 * (`keyOf(step, into)` writes the key of state `step`, 1 .. keyed, and returns its words); then a
 * move that wins. Keys ignore the order of the piles, so the replay keeps the user's pile numbers.
 */
export function tracedMoves(position: Position, keyed: number, keyOf: (step: number, into: Uint32Array) => number): Move[] {
  const engine = new Engine(position);
  const out: Move[] = [];
  const moves = new Int32Array(MOVE_HEADROOM);
  const want = new Uint32Array(MAX_KEY_WORDS);
  const have = new Uint32Array(MAX_KEY_WORDS);
  for (let step = 1; step <= keyed; step++) {
    const words = keyOf(step, want);
    if (!stepWhere(engine, moves, out, () => sameKey(have, engine.encode(have), want, words))) throw new Error('internal: a traced step has no move');
  }
  if (!stepWhere(engine, moves, out, () => engine.isWon())) throw new Error('internal: the traced path ends with no winning move');
  return out;
}

/**
 * The moves with each card that goes onto a pile and at once from there to its foundation sent home
 * in one move from where it came. Rule 11 (docs/algorithms.md) makes the search take a waste card
 * home by way of a pile, and the Canister family's search sometimes a tableau card; a player would
 * not. The one move is legal (the card was available where it came from, and the foundations did not
 * change in between, so it was next there already) and leads to the same position: the pile it
 * passed through has its top back, and the place it came from is as the first move left it. Moves
 * with a reserve card filling an emptied pile are left as they are, and so is a card from a
 * foundation (there the two moves undo each other, which a search that never enters a state twice
 * does not do).
 */
export function homeDirect(moves: readonly Move[]): Move[] {
  const out: Move[] = [];
  for (const move of moves) {
    out.push(move);
    // A card passed through several piles on its way home joins up from the last step back.
    while (out.length >= 2 && goesHomeThrough(out[out.length - 2]!, out[out.length - 1]!)) {
      const a = out[out.length - 2] as Extract<Move, { kind: 'move' }>;
      out.length -= 2;
      out.push({ kind: 'move', card: a.card, count: 1, from: a.from, to: { area: 'foundation' } });
    }
  }
  return out;
}

/** Whether `a` builds one card on a pile (emptying none that the reserve fills) and `b` sends it home from there. */
function goesHomeThrough(a: Move, b: Move): boolean {
  return (
    a.kind === 'move' &&
    b.kind === 'move' &&
    a.count === 1 &&
    a.to.area === 'tableau' &&
    a.from.area !== 'foundation' &&
    a.autoFill === undefined &&
    b.card === a.card &&
    b.from.area === 'tableau' &&
    b.from.index === a.to.index &&
    b.to.area === 'foundation' &&
    b.autoFill === undefined
  );
}

/**
 * Makes the first of `engine`'s generated moves after which `matches()` holds, appending its
 * public moves to `out` (the others are undone and leave nothing there); whether there was one.
 */
function stepWhere(engine: Engine, moves: Int32Array, out: Move[], matches: () => boolean): boolean {
  const n = engine.generate(moves, 0);
  for (let i = 0; i < n; i++) {
    const mark = out.length;
    const info = engine.makeDescribed(moves[i]!, out);
    if (matches()) return true;
    engine.undo(moves[i]!, info);
    out.length = mark;
  }
  return false;
}

/** Whether key `have` (its first `len` words) is key `want` (`words` words). */
function sameKey(have: Uint32Array, len: number, want: Uint32Array, words: number): boolean {
  if (len !== words) return false;
  for (let k = 0; k < len; k++) if (have[k] !== want[k]) return false;
  return true;
}
