import { grow } from './stack';

/** Buckets of the open states, by `Engine.evaluate`, offset by BUCKET_ZERO. */
const BUCKETS = 1 << 16;
const BUCKET_ZERO = 1 << 15;

/**
 * The open states of a best-first search (`Solver.bestFirst`), in buckets by their evaluation,
 * last in first out within a bucket; each entered state keeps its table entry and its parent (for
 * tracing a win back). Entered state i is the table's entry i. It also keeps where a limit stopped
 * the search: the state being expanded (`cur`, -1 for none) and the move to try next, so a search
 * kept between runs goes on there.
 */
export class OpenList {
  offsetOf = new Int32Array(1 << 12);
  parentOf = new Int32Array(1 << 12);
  private nextOf = new Int32Array(1 << 12);
  private readonly head = new Int32Array(BUCKETS).fill(-1);
  private top = -1;
  cur = -1;
  next = 0;
  /** Whether nothing was entered yet. */
  started = false;

  /** Bytes held, which share the memory budget with the table. */
  get bytes(): number {
    return this.head.byteLength + 3 * this.offsetOf.byteLength;
  }

  /** The bytes the arrays would hold once grown to take entry `idx`. */
  bytesFor(idx: number): number {
    return idx < this.offsetOf.length ? this.bytes : this.head.byteLength + 6 * this.offsetOf.byteLength;
  }

  /** Enters state `idx` (table entry `offset`, parent entered state `parent`, -1 for the root) with evaluation `h`. */
  push(idx: number, offset: number, parent: number, h: number): void {
    if (idx >= this.offsetOf.length) {
      this.offsetOf = grow(this.offsetOf);
      this.parentOf = grow(this.parentOf);
      this.nextOf = grow(this.nextOf);
    }
    this.offsetOf[idx] = offset;
    this.parentOf[idx] = parent;
    const b = h < -BUCKET_ZERO ? 0 : h >= BUCKETS - BUCKET_ZERO ? BUCKETS - 1 : h + BUCKET_ZERO;
    this.nextOf[idx] = this.head[b]!;
    this.head[b] = idx;
    if (b > this.top) this.top = b;
    this.started = true;
  }

  /** Takes the open state of the highest bucket, -1 when none is left. */
  pop(): number {
    while (this.top >= 0 && this.head[this.top]! < 0) this.top--;
    if (this.top < 0) return -1;
    const cur = this.head[this.top]!;
    this.head[this.top] = this.nextOf[cur]!;
    return cur;
  }
}
