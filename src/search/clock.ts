/**
 * The time limit of one solve, counted in the time the search runs. A process can be stopped in the
 * middle of a deal (Ctrl-Z, SIGSTOP, a cluster that suspends a job to run another) and continued
 * later; by the wall clock alone its deal would then be out of time at the first check after it
 * continues, and a win-rate run would record it as undecided though nothing was searched in the
 * gap. So a gap between two checks longer than `SUSPENDED_MS` is left out of the time: the search
 * checks every 1,024 nodes, about a millisecond apart, and nothing it does between two checks
 * takes more than a fraction of a second (the slowest, doubling the table's slots near a 2 GiB
 * budget, well under one).
 */
export const SUSPENDED_MS = 2000;

export class SearchClock {
  private readonly startedMs: number;
  private lastMs: number;
  /** The gaps left out so far. */
  private suspendedMs = 0;

  constructor(
    private readonly limitMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.startedMs = now();
    this.lastMs = this.startedMs;
  }

  /** Whether the limit has passed; called at each check of the limits. */
  expired(): boolean {
    return this.elapsedMs() > this.limitMs;
  }

  /** The time the search has run: the wall time since it started, less the gaps of a stopped process. */
  elapsedMs(): number {
    const t = this.now();
    if (t - this.lastMs > SUSPENDED_MS) this.suspendedMs += t - this.lastMs;
    this.lastMs = t;
    return t - this.startedMs - this.suspendedMs;
  }
}
