/**
 * The solver's internal move: one 32-bit integer, never an object, so that move lists live in
 * typed arrays. The public `Move` (src/rules/move.ts) is built from it only for the answer.
 *
 *   bits  0-2   type (MT_*)
 *   bits  3-6   source tableau pile
 *   bits  7-10  destination tableau pile
 *   bits 11-16  number of cards moved (tableau to tableau)
 *   bits 17-22  talon index of the waste card played (index into the deal's talon order)
 *   bit  23     the talon card is reached only after one redeal
 *   bits 24-25  suit of the foundation card moved back (foundation to tableau)
 *   bit  26     forced: a proved-safe foundation move, the only move tried from its state
 *   bits 27-30  twin flip: 1 + the index of the state's swappable twin pair (in the engine's order)
 *               swapped just before the move, or 0 (see `TwinClasses`, twins.ts)
 */
export const MT_T2F = 0; // tableau top -> foundation
export const MT_T2T = 1; // tableau unit -> tableau
export const MT_R2F = 2; // reserve top -> foundation
export const MT_R2T = 3; // reserve top -> tableau
export const MT_W2F = 4; // a waste card (reached by dealing) -> foundation
export const MT_W2T = 5; // a waste card (reached by dealing) -> tableau
export const MT_F2T = 6; // foundation top -> tableau

export const TYPE_MASK = 7;
export const SRC_SHIFT = 3;
export const DST_SHIFT = 7;
export const PILE_MASK = 15;
export const COUNT_SHIFT = 11;
export const COUNT_MASK = 63;
export const TALON_SHIFT = 17;
export const TALON_MASK = 63;
export const REDEAL_BIT = 1 << 23;
export const SUIT_SHIFT = 24;
export const SUIT_MASK = 3;
export const FORCED_BIT = 1 << 26;
export const FLIP_SHIFT = 27;
export const FLIP_MASK = 15;
/** Most twin pairs of a state the engine handles (the flip field holds 1 + a pair's index). */
export const MAX_FLIP_PAIRS = 15;

export const moveType = (m: number): number => m & TYPE_MASK;
export const moveSrc = (m: number): number => (m >>> SRC_SHIFT) & PILE_MASK;
export const moveDst = (m: number): number => (m >>> DST_SHIFT) & PILE_MASK;
export const moveCount = (m: number): number => (m >>> COUNT_SHIFT) & COUNT_MASK;
export const moveTalon = (m: number): number => (m >>> TALON_SHIFT) & TALON_MASK;
export const moveSuit = (m: number): number => (m >>> SUIT_SHIFT) & SUIT_MASK;

/** The undo info bit that says the reserve filled the pile a move emptied (see `Board.makeMove`). */
export const AUTO_FILL_BIT = 1 << 30;
/** The undo info bit that says the move swapped twins before or after it (see `TwinClasses.make`). */
export const TWIN_BIT = 1 << 29;

/**
 * The move that takes move `m` straight back to the state before it, as the engine would generate
 * it, or -1 when there is none: a run moved between piles goes back onto the pile it left, a
 * foundation card moved to a pile goes home again, and a tableau card played to its foundation
 * comes back onto its pile (games with foundation to tableau). Not when a reserve card filled the
 * pile the move emptied, nor when twins were swapped (`undoInfo`, from Engine.make): then the way
 * back lands elsewhere.
 */
export function inverseMove(m: number, undoInfo: number): number {
  if ((undoInfo & (AUTO_FILL_BIT | TWIN_BIT)) !== 0) return -1;
  switch (moveType(m)) {
    case MT_T2T:
      return MT_T2T | (moveDst(m) << SRC_SHIFT) | (moveSrc(m) << DST_SHIFT) | (moveCount(m) << COUNT_SHIFT);
    case MT_F2T:
      return MT_T2F | (moveDst(m) << SRC_SHIFT);
    case MT_T2F:
      // The undo info of a tableau-to-foundation move holds the card.
      return MT_F2T | (((undoInfo & 255) / 13) | 0) << SUIT_SHIFT | (moveSrc(m) << DST_SHIFT);
    default:
      return -1;
  }
}
