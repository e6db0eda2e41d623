import { type Board, SUIT_OF } from './board';

/**
 * The waits-for graph of a game where only whole piles move and foundation cards never come back
 * (Hoyle Canfield: `Engine.noBurial`). A card on a pile is uncovered only when every card above it
 * has gone home, and a card goes home only after the card before it in its suit; so "x must go home
 * before y" follows those two kinds of edge. Rule 10 (docs/algorithms.md) leaves out the moves
 * that would make a card wait for itself; rule 2's third case sends a card home when no card that
 * could be built on it ever can be.
 */
export class WaitsFor {
  readonly board: Board;
  // Scratch: the card under each tableau card (valid where `underStamp` is `underNow`), and the
  // cards a walk has seen (`visited` equal to `visitNow`).
  private readonly under = new Uint8Array(64);
  private readonly underStamp = new Int32Array(64);
  // coverStamp[c] is `underNow` when a card lies on tableau card c.
  private readonly coverStamp = new Int32Array(64);
  private underNow = 0;
  private readonly visited = new Int32Array(64);
  private visitNow = 0;
  private readonly waitStack = new Uint8Array(64);

  constructor(board: Board) {
    this.board = board;
  }

  /** Notes the card under each tableau card, for `waitsFor`; once per `Engine.generate`. */
  mark(): void {
    if (++this.underNow === 0x7fffffff) {
      this.underStamp.fill(0);
      this.coverStamp.fill(0);
      this.underNow = 1;
    }
    const now = this.underNow;
    const board = this.board;
    const H = board.maxHeight;
    for (let p = 0; p < board.piles; p++) {
      const b = p * H;
      for (let i = 1, l = board.len[p]!; i < l; i++) {
        const c = board.pile[b + i]!;
        const u = board.pile[b + i - 1]!;
        this.under[c] = u;
        this.underStamp[c] = now;
        this.coverStamp[u] = now;
      }
    }
  }

  /**
   * Whether card x must go home before card y can. A card lying on another in a pile goes home
   * before it (whole piles move, so a card is uncovered only when every card above it has gone
   * home), and a card goes home before the next card of its suit; this follows both, step by step,
   * from x. `mark` must be current.
   */
  waitsFor(x: number, y: number): boolean {
    if (++this.visitNow === 0x7fffffff) {
      this.visited.fill(0);
      this.visitNow = 1;
    }
    const now = this.visitNow;
    const { visited, waitStack, under, underStamp } = this;
    const succOf = this.board.succOf;
    const underNow = this.underNow;
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
      if (underStamp[c] === underNow) {
        const u = under[c]!;
        if (visited[u] !== now) {
          visited[u] = now;
          waitStack[n++] = u;
        }
      }
    }
    return false;
  }

  /**
   * Under `noBurial` (rule 2, third case): whether no card that may be built on `card` can ever be
   * built there: each is stuck (`builderStuck`) or could go home instead (`deadBuilder`).
   * `mark` must be current.
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
    return board.found[SUIT_OF[x]!]! > board.order[x]! || this.underStamp[x] === this.underNow || this.waitsFor(card, x);
  }

  /**
   * Under `noBurial` (rule 2, third case): whether builder x, if it is ever built on the card, can
   * go home instead: it is next on its foundation, nothing lies on it, and every card that could be
   * built on it is stuck.
   */
  private deadBuilder(x: number): boolean {
    const board = this.board;
    if (board.found[SUIT_OF[x]!]! !== board.order[x]! || this.coverStamp[x] === this.underNow) return false;
    for (let i = x * 4, end = i + 4; i < end; i++) {
      const y = board.builders[i]!;
      if (y === 255) break;
      if (!this.builderStuck(y, x)) return false;
    }
    return true;
  }
}
