/**
 * The time limit of one solve, counted in the time the search runs. A process can be stopped in the
 * middle of a deal (Ctrl-Z, SIGSTOP, a cluster that suspends a job to run another) and continued
 * later; by the wall clock alone its deal would then be out of time at the first check after it
 * continues, and a win-rate run would record it as undecided though nothing was searched in the
 * gap. So a gap between two checks longer than `SUSPENDED_MS` is left out of the time: the search
 * checks every 1,024 nodes, about a millisecond apart. The one step between two checks that can take
 * longer is the table's (doubling its slots near a 2 GiB budget took 4 s once, with the cores busy),
 * and the table says how long it took (`busyMs`), which is never left out.
 */
export const SUSPENDED_MS = 2000;

export class SearchClock {
  private readonly startedMs: number;
  private lastMs: number;
  private lastBusyMs: number;
  /** The gaps left out so far. */
  private suspendedMs = 0;

  /**
   * `busyMs`: the milliseconds the search has spent so far in long steps of its own (`StateTable.busy`),
   * a count that only grows.
   */
  constructor(
    private readonly limitMs: number,
    private readonly busyMs: () => number = () => 0,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.startedMs = now();
    this.lastMs = this.startedMs;
    this.lastBusyMs = busyMs();
  }

  /** Whether the limit has passed; called at each check of the limits. */
  expired(): boolean {
    return this.elapsedMs() > this.limitMs;
  }

  /** The time the search has run: the wall time since it started, less the gaps of a stopped process. */
  elapsedMs(): number {
    const t = this.now();
    const busy = this.busyMs();
    const gap = t - this.lastMs - (busy - this.lastBusyMs);
    if (gap > SUSPENDED_MS) this.suspendedMs += gap;
    this.lastMs = t;
    this.lastBusyMs = busy;
    return t - this.startedMs - this.suspendedMs;
  }
}
