/**
 * Solving many deals: in a piscina pool of worker threads, or in the main thread (workers <= 1).
 *
 * Deals go out in batches (1 to 64 deal numbers, sized so a batch takes about a quarter second) and
 * come back as rows of float64 in a SharedArrayBuffer per batch (see batch.ts), so messaging costs
 * little even for deals solved in microseconds. A batch's finished rows can be read even when its
 * worker died or was stopped, so no finished deal is ever lost.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { Piscina } from 'piscina';
import { CODE_ERROR } from '../analyze/records';
import { fail, shown } from '../errors';
import { type Rules, validateRules } from '../rules/rules';
import { checkSolveOptions } from '../search/options';
import type { SolveOptions } from '../search/types';
import {
  type BatchDetails,
  type BatchReply,
  BatchRunner,
  type BatchTask,
  errorText,
  ROW_FIELDS,
  ROWS_HEADER_BYTES,
  rowNeedsDetail,
  rowsBytes,
  type TestFaults,
} from './batch';

/** Hands out the deal numbers still to solve. */
export interface DealSource {
  /** Up to `max` deal numbers, or null when none are left. */
  next(max: number): Float64Array | null;
  /** Deal numbers not handed out yet. */
  readonly remaining: number;
}

/**
 * Finished deals, delivered as they come: `rows` holds `count` rows of ROW_FIELDS (deal, code,
 * nodes, ms, solution length); `details` maps a row index to its error message or solution.
 */
export type ResultsHandler = (rows: Float64Array, count: number, details: ReadonlyMap<number, string | string[]>) => void;

export interface SolveDealsOptions {
  rules: Rules;
  limits: SolveOptions;
  saveSolutions?: boolean;
  /** Worker threads; 0 or 1 solve in the main thread. Default: os.availableParallelism(). */
  workers?: number;
  source: DealSource;
  onResults: ResultsHandler;
  signal?: AbortSignal;
  /** Largest batch of deals per task (default 64). */
  maxBatch?: number;
  /** The worker module (default: dist/worker.js of this package). */
  workerFile?: string;
  /** For tests: faults to inject (see TestFaults). */
  faults?: TestFaults;
  /** After an abort, how long to let workers finish the deal they are on before stopping them (ms). */
  abortGraceMs?: number;
}

export interface SolveDealsResult {
  /** True when the signal stopped the run before every deal was solved. */
  interrupted: boolean;
  workers: number;
}

const DEFAULT_MAX_BATCH = 64;
const FIRST_BATCH = 8;
/** Aim for batches of about this much solving time: big enough that messaging is noise, small enough to balance. */
const BATCH_TARGET_MS = 250;
/** The main-thread path yields to the event loop this often, so an abort or progress gets through. */
const INLINE_SLICE_MS = 50;

/** One worker a core (at most MAX_WORKERS, below). */
export const defaultWorkers = (): number => Math.min(availableParallelism(), MAX_WORKERS);

/**
 * The most worker threads a run may ask for. Each is a thread with its own V8 heap and search table;
 * many thousands exhaust the process's address space before any deal is solved.
 */
export const MAX_WORKERS = 256;

/** A worker count as given (0 or 1: the main thread), else a PatienceError naming it. */
export function checkWorkers(workers: number): number {
  if (typeof workers !== 'number' || !Number.isSafeInteger(workers) || workers < 0 || workers > MAX_WORKERS) {
    fail(`bad worker count ${shown(workers)}: expected a whole number from 0 to ${MAX_WORKERS} (0 or 1: the main thread)`);
  }
  return workers;
}

/** dist/worker.js: next to this module once bundled, or in the package's dist/ when running from src/ (tests). */
export function findWorkerFile(): string {
  const candidates = [new URL('./worker.js', import.meta.url), new URL('../../dist/worker.js', import.meta.url)];
  for (const c of candidates) {
    const path = fileURLToPath(c);
    if (existsSync(path)) return path;
  }
  throw new Error(`cannot find the worker module (looked for ${candidates.map((c) => fileURLToPath(c)).join(' and ')}): run the build (npm run build) first`);
}

/** Deals start..end-1 minus those `done` says are finished. */
export function rangeSource(start: number, end: number, done?: (deal: number) => boolean): DealSource {
  // `end` is exclusive, so it may be one past the last deal number, 2^53.
  if (!Number.isSafeInteger(start) || !Number.isInteger(end) || end > 2 ** 53 || start < 0 || end < start) fail(`bad deal range ${shown(start)} .. ${shown(end)}: expected whole deal numbers, start <= end`);
  let cursor = start;
  let remaining = end - start;
  if (done) for (let d = start; d < end; d++) if (done(d)) remaining--;
  return {
    get remaining() {
      return remaining;
    },
    next(max) {
      if (remaining <= 0) return null;
      const out = new Float64Array(Math.min(max, remaining));
      let n = 0;
      while (n < out.length && cursor < end) {
        const d = cursor++;
        if (!done || !done(d)) out[n++] = d;
      }
      remaining -= n;
      return n === 0 ? null : out.subarray(0, n);
    },
  };
}

/** Sizes batches from the time deals have been taking. */
class BatchSizer {
  private meanMs = -1;
  constructor(
    private readonly max: number,
    private readonly lanes: number,
  ) {}
  observe(rows: Float64Array, count: number): void {
    for (let i = 0; i < count; i++) {
      const ms = Math.max(0.001, rows[i * ROW_FIELDS + 3]!);
      this.meanMs = this.meanMs < 0 ? ms : this.meanMs * 0.98 + ms * 0.02;
    }
  }
  size(remaining: number): number {
    const wanted = this.meanMs < 0 ? FIRST_BATCH : Math.round(BATCH_TARGET_MS / this.meanMs);
    // Near the end, smaller batches keep every worker busy to the last deal.
    const share = Math.ceil(remaining / this.lanes);
    return Math.max(1, Math.min(this.max, wanted, share));
  }
}

function detailsMap(details: BatchDetails | undefined): Map<number, string | string[]> {
  const map = new Map<number, string | string[]>();
  if (details) for (const [i, d] of details) map.set(i, d);
  return map;
}

const SOLVE_DEALS_OPTIONS = new Set(['rules', 'limits', 'saveSolutions', 'workers', 'source', 'onResults', 'signal', 'maxBatch', 'workerFile', 'faults', 'abortGraceMs']);

/**
 * Solves every deal the source hands out and delivers the results as batches finish. On abort,
 * stops handing out deals, lets the workers finish the deal they are on (up to abortGraceMs), then
 * stops them; every finished deal is still delivered. A deal whose solving throws is delivered with
 * the error code and the message; a worker that dies is replaced and the deal it died on is retried
 * alone, then recorded as an error if it kills a worker again.
 */
export async function solveDeals(options: SolveDealsOptions): Promise<SolveDealsResult> {
  if (typeof options !== 'object' || options === null) fail('solveDeals needs its options: rules, limits, source and onResults');
  // Checked once here: a bad limit would otherwise fail every deal, each recorded as an error.
  for (const key of Object.keys(options)) if (!SOLVE_DEALS_OPTIONS.has(key)) fail(`unknown solveDeals option "${key}": expected one of ${[...SOLVE_DEALS_OPTIONS].join(', ')}`);
  validateRules(options.rules);
  // checkSolveOptions takes undefined for "no options"; here limits are required.
  if (options.limits === undefined) fail('solveDeals needs its limits: solve options such as { timeLimitMs: 10000 } ({} for none)');
  checkSolveOptions(options.limits);
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) fail('solveDeals: signal must be an AbortSignal (new AbortController().signal)');
  if (options.saveSolutions !== undefined && typeof options.saveSolutions !== 'boolean') fail(`bad saveSolutions ${shown(options.saveSolutions)}: expected true or false`);
  if (typeof options.source?.next !== 'function') fail('solveDeals needs a deal source (rangeSource)');
  if (typeof options.onResults !== 'function') fail('solveDeals needs an onResults function');
  if (options.maxBatch !== undefined && (!Number.isSafeInteger(options.maxBatch) || options.maxBatch < 1)) fail(`bad maxBatch ${shown(options.maxBatch)}: expected a whole number from 1`);
  const workers = checkWorkers(options.workers ?? defaultWorkers());
  if (workers <= 1) return solveInline(options);
  return solveInPool(options, workers);
}

async function solveInline(options: SolveDealsOptions): Promise<SolveDealsResult> {
  const runner = new BatchRunner();
  const sizer = new BatchSizer(options.maxBatch ?? DEFAULT_MAX_BATCH, 1);
  const signal = options.signal;
  let cut = false;
  while (!signal?.aborted) {
    const deals = options.source.next(sizer.size(options.source.remaining));
    if (!deals) break;
    const buffer = new ArrayBuffer(rowsBytes(deals.length));
    const count = new Int32Array(buffer, 0, 1);
    const rows = new Float64Array(buffer, ROWS_HEADER_BYTES, deals.length * ROW_FIELDS);
    const details = new Map<number, string | string[]>();
    const task: BatchTask = { rules: options.rules, limits: options.limits, saveSolutions: options.saveSolutions === true, deals, rows: buffer, faults: options.faults };
    while (count[0]! < deals.length) {
      const before = count[0]!;
      // A slice of solving at a time, then a turn of the event loop, so an abort or a signal gets through.
      for (const [i, d] of runner.run(task, INLINE_SLICE_MS).details) details.set(i, d);
      sizer.observe(rows.subarray(before * ROW_FIELDS), count[0]! - before);
      await yieldToEventLoop();
      if (signal?.aborted) break;
    }
    if (count[0]! < deals.length) cut = true;
    options.onResults(rows, count[0]!, details);
  }
  return { interrupted: cut || (signal?.aborted === true && options.source.remaining > 0), workers: 0 };
}

async function solveInPool(options: SolveDealsOptions, workers: number): Promise<SolveDealsResult> {
  const pool = new Piscina<BatchTask, BatchReply>({
    filename: options.workerFile ?? findWorkerFile(),
    minThreads: workers,
    maxThreads: workers,
    idleTimeout: 60_000,
    concurrentTasksPerWorker: 1,
  });
  const lanes = workers * 2;
  const sizer = new BatchSizer(options.maxBatch ?? DEFAULT_MAX_BATCH, lanes);
  const stop = new SharedArrayBuffer(4);
  const stopFlag = new Int32Array(stop);
  const saveSolutions = options.saveSolutions === true;
  let stopping = false;
  let cut = false;

  const deliver = (rows: Float64Array, count: number, details: Map<number, string | string[]>) => {
    if (count === 0) return;
    sizer.observe(rows, count);
    options.onResults(rows, count, details);
  };

  const runBatch = async (deals: Float64Array): Promise<void> => {
    const buffer = new SharedArrayBuffer(rowsBytes(deals.length));
    const rows = new Float64Array(buffer, ROWS_HEADER_BYTES, deals.length * ROW_FIELDS);
    const count = new Int32Array(buffer, 0, 1);
    let reply: BatchReply;
    try {
      reply = await pool.run({ rules: options.rules, limits: options.limits, saveSolutions, deals, rows: buffer, stop, faults: options.faults });
    } catch (e) {
      // The worker died or was stopped: keep the finished rows up to the first whose detail was lost.
      const finished = Atomics.load(count, 0);
      let kept = 0;
      while (kept < finished && !rowNeedsDetail(rows[kept * ROW_FIELDS + 1]!, saveSolutions)) kept++;
      deliver(rows, kept, new Map());
      const rest = deals.subarray(kept);
      if (rest.length === 0) return;
      if (stopping) {
        cut = true;
        return;
      }
      if (deals.length === 1) {
        const errorRow = new Float64Array([deals[0]!, CODE_ERROR, 0, 0, 0]);
        deliver(errorRow, 1, new Map([[0, `the worker died solving this deal: ${errorText(e)}`]]));
        return;
      }
      // Retry the deal it died on alone (it is the likely culprit), then the rest.
      await runBatch(rest.slice(0, 1));
      if (rest.length > 1) await runBatch(rest.slice(1));
      return;
    }
    const finished = Atomics.load(count, 0);
    deliver(rows, finished, detailsMap(reply.details));
    if (finished < deals.length) {
      // Stopped by the flag: the rest were never started.
      cut = true;
    }
  };

  const lane = async (): Promise<void> => {
    while (!stopping) {
      const deals = options.source.next(sizer.size(options.source.remaining));
      if (!deals) return;
      await runBatch(deals.slice());
    }
  };

  const onAbort = () => {
    stopping = true;
    Atomics.store(stopFlag, 0, 1);
  };
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const all = Promise.all(Array.from({ length: lanes }, lane));
  try {
    if (!stopping) {
      // Wait for the lanes, or for an abort.
      await Promise.race([all, new Promise<void>((resolve) => options.signal?.addEventListener('abort', () => resolve(), { once: true }))]);
    }
    if (stopping) {
      const grace = options.abortGraceMs ?? 1000;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([all.then(() => false), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), grace)))]);
      clearTimeout(timer);
      if (timedOut) {
        await pool.destroy();
        await all;
      }
    } else {
      await all;
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    await pool.destroy();
  }
  return { interrupted: stopping && (cut || options.source.remaining > 0), workers };
}
