import { cardRank, makeCard } from '../cards/card';
import type { Board } from './board';
import type { TwinClasses } from './twins';

// Where a card is at hand (`AtHand.mark`), beside bit p for the bottom of a unit that may move off pile p.
const HAND_TALON = 1 << 30;
const HAND_RESERVE = 1 << 29;
const HAND_TABLEAU = 1 << 28;
const HAND_TOP = 1 << 27;
const PILE_BITS = (1 << 27) - 1;

/**
 * Rule 15 (docs/algorithms.md): dealing one card at a time with no limit on redeals, and no card back
 * from a foundation, every card of the talon is at hand whenever it is needed. So a talon card is
 * played onto a pile only when a card that may be built on it is at hand too (`playNeeded`), and
 * goes home only when the next card of its suit can follow it there (`homeNeeded`). Rule 16 asks
 * the same of a talon card going into a space in rule 9's games (`spaceNeeded`). The engine asks
 * only about talon cards that do not end dealing (rules 3 and 9), which keep all their moves.
 */
export class AtHand {
  private readonly board: Board;
  private readonly twinClasses: TwinClasses;
  // Scratch, valid where `stamp` is `now` (`mark`): where each card is at hand (HAND_* bits, and bit
  // p for the bottom of a unit that may move off pile p); the cards `takers` has met (`seen` equal
  // to `seenNow`).
  private readonly stamp = new Int32Array(64);
  private readonly where = new Int32Array(64);
  private readonly seen = new Int32Array(64);
  private readonly stack = new Uint8Array(64);
  private now = 0;
  private seenNow = 0;

  constructor(board: Board, twinClasses: TwinClasses) {
    this.board = board;
    this.twinClasses = twinClasses;
  }

  /**
   * Notes where each card is at hand: the live talon cards (HAND_TALON), the reserve top
   * (HAND_RESERVE), the pile tops (HAND_TOP) and the bottom card of every unit that may move off pile
   * p (bit p). With twins a card's pile may differ within its class, so a unit's bottom is noted as
   * in the tableau (HAND_TABLEAU), and the twin of a pile top as a top too (a swap uncovers it when
   * it lies in the tableau). Once per `Engine.generate`, before `playNeeded` and `homeNeeded`.
   */
  mark(): void {
    const board = this.board;
    const tc = this.twinClasses;
    if (++this.now === 0x7fffffff) {
      this.stamp.fill(0);
      this.now = 1;
    }
    const talon = board.talon;
    for (let i = 0; i < talon.length; i++) if (talon.removed[i] === 0) this.note(talon.cards[i]!, HAND_TALON);
    if (board.resCount > 0) this.note(board.reserve[board.resCount - 1]!, HAND_RESERVE);
    const H = board.maxHeight;
    const wholePile = board.rules.move === 'whole-pile';
    for (let p = 0; p < board.piles; p++) {
      const l = board.len[p]!;
      if (l === 0) continue;
      const top = board.pile[p * H + l - 1]!;
      this.note(top, HAND_TOP);
      // In a twin class a swap or a carry can make any card of the top's twins or group a top.
      if (tc.slotGroups) {
        for (let s = 0; s < 4; s++) this.note(makeCard(s, cardRank(top)), HAND_TOP);
      } else if (board.twins && tc.twinOf[top] !== 255) this.note(tc.twinOf[top]!, HAND_TOP);
      const unit = board.maxUnit(p);
      for (let k = wholePile ? l : 1; k <= unit; k++) this.note(board.pile[p * H + l - k]!, board.twins ? HAND_TABLEAU : 1 << p);
    }
  }

  /**
   * Of `piles` (a bit per pile), those that talon card c may usefully be played onto: some card that
   * could be built on it, directly or at the end of a chain of talon cards, is at hand outside that
   * pile.
   */
  playNeeded(c: number, piles: number): number {
    const mask = this.takers(c);
    if ((mask & ~PILE_BITS) !== 0) return piles;
    let keep = 0;
    for (let on = piles; on !== 0; on &= on - 1) {
      const d = on & -on;
      if ((mask & ~d) !== 0) keep |= d;
    }
    return keep;
  }

  /**
   * Rule 16: whether talon card c may usefully go into a space: some card that could be built on it,
   * directly or at the end of a chain of talon cards, is at hand outside the talon (the reserve top,
   * or the bottom card of a unit that may move off a pile).
   */
  spaceNeeded(c: number): boolean {
    return this.takers(c) !== 0;
  }

  /**
   * Whether talon card c (next on its foundation) may usefully go home now: the cards of its suit
   * after it, up to the first that is not in the talon, can follow it home at once (that card is a
   * pile top or the reserve top, or the suit ends in the talon).
   */
  homeNeeded(c: number): boolean {
    const succOf = this.board.succOf;
    for (let s = succOf[c]!; s !== 255; s = succOf[s]!) {
      const where = this.at(s);
      if ((where & HAND_TALON) === 0) return (where & (HAND_TOP | HAND_RESERVE)) !== 0;
    }
    return true;
  }

  /** Adds `bits` to where card c is at hand. */
  private note(c: number, bits: number): void {
    if (this.stamp[c] !== this.now) {
      this.stamp[c] = this.now;
      this.where[c] = 0;
    }
    this.where[c] |= bits;
  }

  /** Where card c is at hand, 0 where `mark` did not note it. */
  private at(c: number): number {
    return this.stamp[c] === this.now ? this.where[c]! : 0;
  }

  /**
   * Where the cards that could be built on talon card c, at once or at the end of a chain of talon
   * cards each built on the one before, are at hand outside the talon: HAND_RESERVE, HAND_TABLEAU
   * and pile bits.
   */
  private takers(c: number): number {
    if (++this.seenNow === 0x7fffffff) {
      this.seen.fill(0);
      this.seenNow = 1;
    }
    const now = this.seenNow;
    const { seen, stack } = this;
    const builders = this.board.builders;
    let mask = 0;
    let n = 0;
    stack[n++] = c;
    seen[c] = now;
    while (n > 0) {
      const x = stack[--n]!;
      for (let i = x * 4, end = i + 4; i < end; i++) {
        const y = builders[i]!;
        if (y === 255) break;
        const where = this.at(y);
        if ((where & HAND_TALON) === 0) mask |= where & ~HAND_TOP;
        else if (seen[y] !== now) {
          seen[y] = now;
          stack[n++] = y;
        }
      }
    }
    return mask;
  }
}
