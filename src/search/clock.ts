/**
 * The time limit of one solve, counted in the time the search runs. A process can be stopped in the
 * middle of a deal (Ctrl-Z, SIGSTOP, a cluster that suspends a job to run another) and continued
 * later; by the wall clock alone its deal would then be out of time at the first check after it
 * continues, and a win-rate run would record it as undecided though nothing was searched in the
 * gap. So a gap between two checks longer than `SUSPENDED_MS` is left out of the time: the search
 * checks every 1,024 nodes, about a millisecond apart. The one step between two checks that can take
 * longer is the table's (doubling its slots near a 2 GiB budget took 4 s once, with the cores busy),
 * and the table says how long it took (`busy`, measured by `stepMs`), which is never left out.
 */
import type { SolveProgress } from './types';

export const SUSPENDED_MS = 2000;

/** The CPU time this process has used, in milliseconds; where there is no `process.cpuUsage` (a browser), Infinity. */
export function cpuMs(): number {
  const p = (globalThis as { process?: { cpuUsage?: () => { user: number; system: number } } }).process;
  if (typeof p?.cpuUsage !== 'function') return Infinity;
  const u = p.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * How long a long step of the search took (for `busy`): its wall time, but never more than the CPU
 * time the process spent meanwhile. A stopped process uses no CPU, so a stop that lands inside the
 * step (a table doubling takes a few per cent of a search's time) is left out as any other stop is,
 * instead of being counted as the step's. The process's CPU time counts every thread, so another
 * busy thread (a worker of the pool) can only make it the larger of the two.
 */
export function stepMs(wallStartMs: number, cpuStartMs: number, wallNowMs = performance.now(), cpuNowMs = cpuMs()): number {
  const wall = wallNowMs - wallStartMs;
  const cpu = cpuNowMs - cpuStartMs;
  return Math.max(0, Number.isFinite(cpu) ? Math.min(wall, cpu) : wall);
}

/** Milliseconds of search between two calls of `onProgress`. */
export const PROGRESS_EVERY_MS = 1000;

export interface SearchClockOptions {
  /** The milliseconds the search has spent so far in long steps of its own (`StateTable.busy`), a count that only grows. */
  busy?: { readonly ms: number };
  /** The time now, in milliseconds (tests give their own). */
  now?: () => number;
  /** Told how far the search has gone, every `PROGRESS_EVERY_MS` of search (`SolveOptions.onProgress`). */
  onProgress?: ((progress: SolveProgress) => void) | undefined;
}

export class SearchClock {
  private readonly busy: { readonly ms: number };
  private readonly now: () => number;
  private readonly onProgress: ((progress: SolveProgress) => void) | undefined;
  private readonly startedMs: number;
  private lastMs: number;
  private lastBusyMs: number;
  /** The gaps left out so far. */
  private suspendedMs = 0;
  private nextProgressMs = PROGRESS_EVERY_MS;

  constructor(
    private readonly limitMs: number,
    options: SearchClockOptions = {},
  ) {
    this.busy = options.busy ?? { ms: 0 };
    this.now = options.now ?? (() => performance.now());
    this.onProgress = options.onProgress;
    this.startedMs = this.now();
    this.lastMs = this.startedMs;
    this.lastBusyMs = this.busy.ms;
  }

  /** Called at each check of the limits, `nodes` expanded so far: reports progress when due, and says whether the limit has passed. */
  check(nodes: number): boolean {
    const elapsed = this.elapsedMs();
    if (this.onProgress !== undefined && elapsed >= this.nextProgressMs) {
      this.nextProgressMs = elapsed + PROGRESS_EVERY_MS;
      this.onProgress({ nodes, elapsedMs: elapsed });
    }
    return elapsed > this.limitMs;
  }

  /** The time the search has run: the wall time since it started, less the gaps of a stopped process. */
  elapsedMs(): number {
    const t = this.now();
    const busy = this.busy.ms;
    const gap = t - this.lastMs - (busy - this.lastBusyMs);
    if (gap > SUSPENDED_MS) this.suspendedMs += gap;
    this.lastMs = t;
    this.lastBusyMs = busy;
    return t - this.startedMs - this.suspendedMs;
  }
}
