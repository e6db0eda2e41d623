import { type Board, SUIT_OF } from './board';

/**
 * The waits-for graph of a game where only whole piles move and foundation cards never come back
 * (Hoyle Canfield: `Board.noBurial`). A card on a pile is uncovered only when every card above it
 * has gone home, and a card goes home only after the card before it in its suit; so "x must go home
 * before y" follows those two kinds of edge. Rule 10 (docs/algorithms.md) leaves out the moves
 * that would make a card wait for itself; rule 2's third case sends a card home when no card that
 * could be built on it ever can be.
 */
export class WaitsFor {
  readonly board: Board;
  // Scratch: the cards a walk has seen (`visited` equal to `visitNow`).
  private readonly visited = new Int32Array(64);
  private visitNow = 0;
  private readonly waitStack = new Uint8Array(64);

  /** `board` keeps the card under each tableau card (`Board.underOf`, `Board.covered`). */
  constructor(board: Board) {
    this.board = board;
  }

  /**
   * Whether card x must go home before card y can. A card lying on another in a pile goes home
   * before it (whole piles move, so a card is uncovered only when every card above it has gone
   * home), and a card goes home before the next card of its suit; this follows both, step by step,
   * from x.
   */
  waitsFor(x: number, y: number): boolean {
    if (++this.visitNow === 0x7fffffff) {
      this.visited.fill(0);
      this.visitNow = 1;
    }
    const now = this.visitNow;
    const { visited, waitStack } = this;
    const { succOf, underOf } = this.board;
    let n = 0;
    waitStack[n++] = x;
    visited[x] = now;
    while (n > 0) {
      const c = waitStack[--n]!;
      if (c === y) return true;
      const next = succOf[c]!;
      if (next !== 255 && visited[next] !== now) {
        visited[next] = now;
        waitStack[n++] = next;
      }
      const u = underOf[c]!;
      if (u !== 255 && visited[u] !== now) {
        visited[u] = now;
        waitStack[n++] = u;
      }
    }
    return false;
  }

  /**
   * Under `noBurial` (rule 2, third case): whether no card that may be built on `card` can ever be
   * built there: each is stuck (`builderStuck`) or could go home instead (`deadBuilder`).
   */
  buildersStuck(card: number): boolean {
    const builders = this.board.builders;
    for (let i = card * 4, end = i + 4; i < end; i++) {
      const x = builders[i]!;
      if (x === 255) break;
      if (!this.builderStuck(x, card) && !this.deadBuilder(x)) return false;
    }
    return true;
  }

  /**
   * Under `noBurial`: whether x can never be built on `card`: it is home, or lies on another card in
   * a pile (under whole-pile moves it leaves its pile only for its foundation), or `card` must go
   * home before it (`waitsFor`: built there it would wait for itself).
   */
  private builderStuck(x: number, card: number): boolean {
    const board = this.board;
    return board.found[SUIT_OF[x]!]! > board.order[x]! || board.underOf[x] !== 255 || this.waitsFor(card, x);
  }

  /**
   * Under `noBurial` (rule 2, third case): whether builder x, if it is ever built on the card, can
   * go home instead: it is next on its foundation, nothing lies on it, and every card that could be
   * built on it is stuck.
   */
  private deadBuilder(x: number): boolean {
    const board = this.board;
    if (board.found[SUIT_OF[x]!]! !== board.order[x]! || board.covered[x] === 1) return false;
    for (let i = x * 4, end = i + 4; i < end; i++) {
      const y = board.builders[i]!;
      if (y === 255) break;
      if (!this.builderStuck(y, x)) return false;
    }
    return true;
  }
}
