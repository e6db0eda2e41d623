/**
 * Solving a batch of deals, the same way in a worker thread and in the main thread. Results go into
 * a rows buffer the caller owns: a count (Int32 at byte 0, stored after each deal with Atomics so
 * that another thread may read finished rows at any time, even if this thread dies), then one row
 * of ROW_FIELDS float64 per deal. Only strings (error messages, saved solutions) come back as
 * objects, in the reply.
 */
import { CODE_ERROR, CODE_WINNABLE, codeOf } from '../analyze/records';
import { formatMove } from '../rules/notation';
import { dealFromSeed } from '../rules/deal';
import { replay } from '../referee/referee';
import type { Rules } from '../rules/rules';
import { Solver } from '../search/solver';
import type { SolveOptions } from '../search/types';

/** deal, verdict code, nodes, ms, solution length. */
export const ROW_FIELDS = 5;
/** Bytes before the first row: the Int32 count, padded to the float64 alignment. */
export const ROWS_HEADER_BYTES = 8;

export const rowsBytes = (deals: number): number => ROWS_HEADER_BYTES + deals * ROW_FIELDS * 8;

/**
 * Faults to inject, for tests only: deals in `throwOn` throw inside the solving code (as a solver
 * bug would; warm-up deals too); deals in `exitOn` end the worker thread abruptly (as a crash would;
 * in the main thread they throw instead); deals in `truncateOn` come back with a solution that stops
 * short.
 */
export interface TestFaults {
  throwOn?: readonly number[];
  exitOn?: readonly number[];
  /** Deals whose solution loses its last move before the referee replays it (as a solver bug would). */
  truncateOn?: readonly number[];
}

export interface BatchTask {
  rules: Rules;
  limits: SolveOptions;
  saveSolutions: boolean;
  deals: Float64Array;
  /** Rows buffer of rowsBytes(deals.length) bytes. */
  rows: SharedArrayBuffer | ArrayBuffer;
  /** Int32 flag: non-zero asks the batch to stop before its next deal. */
  stop?: SharedArrayBuffer | ArrayBuffer;
  faults?: TestFaults;
}

/** Row index -> error message or solution moves. */
export type BatchDetails = Array<[number, string | string[]]>;

export interface BatchReply {
  details: BatchDetails;
}

/**
 * Nodes a new Solver searches, on other deals of the run's game, before its first deal under a time
 * limit, so that the engine's code is compiled before any deal's clock runs (docs/winrate.md, "The
 * first deals of a worker"): at most WARM_UP_DEALS deals, numbered from WARM_UP_SEED (far past the
 * deals runs take; their results are thrown away, so a run of those numbers solves them again).
 */
export const WARM_UP_NODES = 50_000;
const WARM_UP_DEALS = 64;
export const WARM_UP_SEED = 1_000_000_001;

/** Keeps one Solver (and its table memory) across batches, replacing it only when the memory size changes or it threw. */
export class BatchRunner {
  private solver: Solver | null = null;
  private memoryMiB: number | undefined = -1;
  /** Nodes the current Solver searched to warm up (0 until it has). */
  warmUpNodes = 0;

  /**
   * Solves the task's deals in order into its rows buffer and returns the details. Stops early when
   * the stop flag is set, or once `budgetMs` have passed (the main thread's path, to yield); the
   * count in the rows buffer says how many deals were done.
   */
  run(task: BatchTask, budgetMs = Infinity, inWorker = false): BatchReply {
    const count = new Int32Array(task.rows, 0, 1);
    const rows = new Float64Array(task.rows, ROWS_HEADER_BYTES, task.deals.length * ROW_FIELDS);
    const stop = task.stop ? new Int32Array(task.stop, 0, 1) : null;
    const details: BatchDetails = [];
    const started = performance.now();
    const throwOn = task.faults?.throwOn;
    const exitOn = task.faults?.exitOn;
    for (let i = Atomics.load(count, 0); i < task.deals.length; i++) {
      if (stop && Atomics.load(stop, 0) !== 0) break;
      if (i > 0 && performance.now() - started >= budgetMs) break;
      const deal = task.deals[i]!;
      const at = i * ROW_FIELDS;
      const t0 = performance.now();
      try {
        if (exitOn?.includes(deal)) {
          if (inWorker) process.exit(70);
          throw new Error(`forced crash of deal ${deal} (test fault)`);
        }
        if (throwOn?.includes(deal)) throw new Error(`forced failure of deal ${deal} (test fault)`);
        let solver = this.solverFor(task.limits.memoryMiB);
        if (this.warmUpNodes === 0 && task.limits.timeLimitMs !== undefined) solver = this.warmUp(solver, task.rules, throwOn);
        const position = dealFromSeed(task.rules, deal);
        const result = solver.solve(position, task.limits);
        // Every win counted is first replayed by the referee, which shares no code with the solver.
        if (result.verdict === 'winnable') {
          if (task.faults?.truncateOn?.includes(deal)) result.moves = result.moves?.slice(0, -1);
          const check = replay(position, result.moves ?? []);
          if (!check.legal || !check.won) {
            throw new Error(`solver bug: the solution of deal ${deal} ${check.legal ? 'does not win' : `breaks at move ${check.failedAt! + 1}: ${check.reason}`}`);
          }
        }
        const code = codeOf(result.verdict, result.reason);
        const length = code === CODE_WINNABLE ? (result.moves?.length ?? 0) : 0;
        rows[at] = deal;
        rows[at + 1] = code;
        rows[at + 2] = result.nodes;
        rows[at + 3] = result.elapsedMs;
        rows[at + 4] = length;
        if (task.saveSolutions && code === CODE_WINNABLE && result.moves) details.push([i, result.moves.map(formatMove)]);
      } catch (e) {
        // A solver that threw may be in any state: start the next deal with a fresh one.
        this.solver = null;
        rows[at] = deal;
        rows[at + 1] = CODE_ERROR;
        rows[at + 2] = 0;
        rows[at + 3] = performance.now() - t0;
        rows[at + 4] = 0;
        details.push([i, errorText(e)]);
      }
      Atomics.store(count, 0, i + 1);
    }
    return { details };
  }

  private solverFor(memoryMiB: number | undefined): Solver {
    if (!this.solver || this.memoryMiB !== memoryMiB) {
      this.solver = null; // let the old table go before allocating the new one
      this.solver = new Solver(memoryMiB === undefined ? {} : { memoryMiB });
      this.memoryMiB = memoryMiB;
      this.warmUpNodes = 0;
    }
    return this.solver;
  }

  /**
   * Searches deals of the game numbered from WARM_UP_SEED for WARM_UP_NODES nodes in all, forgets
   * their results, and returns the Solver to use. Only the time a deal takes depends on it: each
   * search starts from its own deal, and the Solver keeps nothing from one deal that changes the next
   * one's search. A warm-up deal that throws is not the run's: the run goes on with a fresh Solver,
   * and its own deals say whether the fault is theirs too.
   */
  private warmUp(solver: Solver, rules: Rules, throwOn: readonly number[] | undefined): Solver {
    let nodes = 0;
    try {
      for (let seed = WARM_UP_SEED; seed < WARM_UP_SEED + WARM_UP_DEALS && nodes < WARM_UP_NODES; seed++) {
        if (throwOn?.includes(seed)) throw new Error(`forced failure of deal ${seed} (test fault)`);
        nodes += solver.solve(dealFromSeed(rules, seed), { nodeLimit: WARM_UP_NODES - nodes }).nodes;
      }
    } catch {
      this.solver = null;
      solver = this.solverFor(this.memoryMiB);
    }
    this.warmUpNodes = Math.max(nodes, 1);
    return solver;
  }
}

export function errorText(e: unknown): string {
  const text = e instanceof Error ? `${e.name === 'Error' || e.name === 'PatienceError' ? '' : `${e.name}: `}${e.message}` : String(e);
  return text.replace(/\s*\n\s*/g, '; ').trim() || 'unknown error';
}

/** Whether a row's result needs its detail (which only the reply carries) to be recorded. */
export const rowNeedsDetail = (code: number, saveSolutions: boolean): boolean => code === CODE_ERROR || (saveSolutions && code === CODE_WINNABLE);
