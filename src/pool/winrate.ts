/**
 * The win-rate run: solve deals from .. from+deals-1 (or one shard of them) in the pool, write each
 * finished deal to a result file as it comes, and summarize. See docs/winrate.md.
 */
import { copyFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { fail, shown } from '../errors';
import { checkDealNumber, MAX_DEAL_NUMBER } from '../cards/shuffle';
import { CODE_UNWINNABLE, CODE_WINNABLE } from '../analyze/records';
import { canonicalJson, checkResultName, DealBitmap, encodeRecord, headerRules, makeHeader, PACKAGE_VERSION, type ResultHeader, ResultWriter, type RunLimits, scanResultFile } from '../analyze/result-file';
import { lockResultFile } from '../analyze/run-lock';
import { restamped } from '../analyze/results';
import { ROW_FIELDS, type TestFaults } from './batch';
import { checkShard, MAX_RUN_DEALS, parseShard, type Shard, shardFromEnv } from '../analyze/shards';
import { type RunSummary, SummaryBuilder } from '../analyze/summary';
import { resolveRules, type Rules, type RulesOptions, rulesToJson } from '../rules/rules';
import type { SolveOptions } from '../search/types';
import { checkWorkers, defaultWorkers, rangeSource, solveDeals } from './pool';
import { defaultMemoryMiB } from './memory';

export interface WinRateOptions {
  /** The game preset. Optional with `resume` (the file names it). */
  game?: string;
  /** Rule overrides on top of the preset, as for resolveRules. */
  rules?: RulesOptions | Record<string, unknown>;
  /** First deal number (default 1). */
  from?: number;
  /** Number of deals: from .. from+deals-1 (all shards together). Optional with `resume`. */
  deals?: number;
  /** Per-deal limits. With neither nodeLimit nor timeLimitMs, timeLimitMs is DEFAULT_TIME_LIMIT_MS. */
  nodeLimit?: number;
  timeLimitMs?: number;
  /**
   * Transposition table per worker, MiB. Default: defaultMemoryMiB (1,900, less when the machine
   * cannot give every worker that much); the header records the number used, so a resumed run keeps it.
   */
  memoryMiB?: number;
  /** Worker threads (default os.availableParallelism()); 0 or 1 solve in the calling thread. */
  workers?: number;
  /** Write every finished deal to this new result file (refused if it exists). */
  out?: string;
  /** Continue this result file: skip its finished deals, append the rest. Its header fixes the run. */
  resume?: string;
  /**
   * Solve again, at higher limits, the deals this result file left undecided (unknown, or an
   * error): its decided deals are copied to `out` (required), the others solved at this call's
   * limits (a limit not given keeps the file's; none may be lower). The file itself is not changed.
   * An interrupted retry is continued with `resume: out`, like any run.
   */
  retry?: string;
  /** Store each winnable deal's solution (move notation) in the result file. */
  saveSolutions?: boolean;
  /** Solve only this slice of the range: `{ index, count }` (index from 1) or "K/N". */
  shard?: Shard | string;
  /** Take the shard index from the batch system's environment (see shardFromEnv), slicing into this many. */
  shardCount?: number;
  /** Environment for shardCount (default process.env). */
  env?: Record<string, string | undefined>;
  /** Largest batch of deals sent to a worker at once (default 64). */
  maxBatch?: number;
  /** For tests: deals to fail on purpose (see TestFaults). Not for real runs. */
  testFaults?: TestFaults;
}

export interface WinRateProgress {
  /** Deals of this file's slice with a result, including those of a resumed file. */
  done: number;
  /** Deals in this file's slice. */
  total: number;
  /** Deals solved by this call. */
  solved: number;
  elapsedMs: number;
  /** This call's deals per second. */
  dealsPerSecond: number;
  /** Estimated time to finish, ms (NaN before the first deal). */
  etaMs: number;
  won: number;
  lost: number;
  unknown: number;
  errors: number;
  winRate: number;
  interval: [number, number];
}

export interface WinRateCallbacks {
  /** Called once before solving starts: the deals of this file's slice, and how many already have a result (resumed). */
  onStart?: (info: { total: number; done: number; header: ResultHeader }) => void;
  /** Called after each batch of deals finishes. */
  onProgress?: (progress: WinRateProgress) => void;
  /** Aborting stops the run: deals in progress are dropped (a resume solves them), finished ones are kept. */
  signal?: AbortSignal;
}

/** The summary of a win-rate run, with what this call did. */
export interface WinRateResult extends RunSummary {
  /** The result file, if any. */
  file?: string;
  /** Deals found finished in the resumed file, or decided deals copied from the retried one. */
  resumed: number;
  /** Deals solved by this call. */
  solved: number;
  /** Wall time of this call, ms. */
  elapsedMs: number;
  /** Deals solved per second of wall time by this call. */
  dealsPerSecond: number;
  workers: number;
  /** True when the signal stopped the run with deals left. */
  interrupted: boolean;
  /** True when every deal of the slice has a result. */
  complete: boolean;
  /** Problems met reading a resumed file, one line each. */
  warnings: string[];
  packageVersion: string;
}

/** The per-deal time limit of a run given no limit at all. */
export const DEFAULT_TIME_LIMIT_MS = 10_000;

interface ResolvedRun {
  header: ResultHeader;
  limits: SolveOptions;
}

function positiveOrNull(name: string, v: number | undefined, whole: boolean): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !(v > 0) || !Number.isFinite(v) || (whole && !Number.isSafeInteger(v))) {
    fail(`bad ${name} ${shown(v)}: expected ${whole ? 'a whole number' : 'a number'} above 0`);
  }
  return v;
}

function resolveShard(options: WinRateOptions): Shard | null {
  if (options.shard !== undefined && options.shardCount !== undefined) {
    const s = typeof options.shard === 'string' ? parseShard(options.shard) : checkShard(options.shard);
    if (s.count !== options.shardCount) fail(`--shard ${s.index}/${s.count} and --shard-count ${options.shardCount} disagree`);
    return s.count === 1 ? null : s;
  }
  let s: Shard | null = null;
  if (options.shard !== undefined) s = typeof options.shard === 'string' ? parseShard(options.shard) : checkShard(options.shard);
  else if (options.shardCount !== undefined) s = shardFromEnv(options.shardCount, options.env ?? process.env);
  return s && s.count > 1 ? s : null;
}

/** The run a new (not resumed) call describes. */
function newRun(options: WinRateOptions): ResolvedRun {
  if (options.game === undefined) fail('no game given: name the game, e.g. winrate canfield --deals 1000');
  if (options.deals === undefined) fail('no number of deals given (--deals N)');
  const rules = resolveRules(options.game, options.rules ?? {});
  const from = options.from ?? 1;
  checkDealNumber(from);
  const deals = options.deals;
  if (!Number.isSafeInteger(deals) || deals < 1 || deals > MAX_RUN_DEALS) fail(`bad number of deals ${shown(deals)}: expected a whole number from 1 to ${MAX_RUN_DEALS}`);
  if (deals - 1 > MAX_DEAL_NUMBER - from) fail(`deals ${from} .. ${BigInt(from) + BigInt(deals) - 1n} go past the last deal number 2^53-1`);
  const nodeLimit = positiveOrNull('node limit', options.nodeLimit, true);
  let timeLimitMs = positiveOrNull('time limit', options.timeLimitMs, false);
  if (nodeLimit === null && timeLimitMs === null) timeLimitMs = DEFAULT_TIME_LIMIT_MS;
  const memoryMiB = positiveOrNull('memory', options.memoryMiB, false) ?? defaultMemoryMiB(options.workers ?? defaultWorkers());
  const limits: RunLimits = { nodeLimit, timeLimitMs, memoryMiB };
  const shard = resolveShard(options);
  // Past one deal a shard, some shards would have none: a run that solves nothing is a mistake.
  if (shard !== null && shard.count > deals) fail(`${shard.count} shards of ${deals} deals leave some with no deal: use at most ${deals} shards`);
  const header = makeHeader({ game: rules.game, rules: rulesToJson(rules), from, deals, shard, limits, saveSolutions: options.saveSolutions === true });
  return { header, limits: solveOptions(limits) };
}

function solveOptions(l: RunLimits): SolveOptions {
  const o: SolveOptions = {};
  if (l.nodeLimit !== null) o.nodeLimit = l.nodeLimit;
  if (l.timeLimitMs !== null) o.timeLimitMs = l.timeLimitMs;
  if (l.memoryMiB !== null) o.memoryMiB = l.memoryMiB;
  return o;
}

/** The Rules a header names (its `rules` is rulesToJson's, game included). */
export function rulesOfHeader(header: ResultHeader): Rules {
  const rules = headerRules(header);
  if (canonicalJson(rulesToJson(rules)) !== canonicalJson(header.rules)) {
    fail(`the rules in the result file do not match what this version makes of them: ${JSON.stringify(header.rules)}`);
  }
  return rules;
}

/** An option given to resume or retry a file that contradicts the file's header. */
function clash(verb: 'resume' | 'retry', path: string, what: string, given: unknown, theirs: unknown): never {
  return fail(`cannot ${verb} ${path} with ${what} ${String(given)}: the file was started with ${String(theirs)} (leave it out to keep the file's)`);
}

/** Refuses options that contradict the header of the file resumed (or retried: `verb`), limits aside. */
function checkRunAgrees(options: WinRateOptions, header: ResultHeader, path: string, verb: 'resume' | 'retry'): void {
  if (options.game !== undefined) {
    const rules = resolveRules(options.game, options.rules ?? {});
    if (rules.game !== header.game) clash(verb, path, 'game', rules.game, header.game);
    const mine = rulesToJson(rules);
    const differ = Object.keys(mine).filter((k) => canonicalJson(mine[k]) !== canonicalJson(header.rules[k]));
    if (differ.length > 0) {
      fail(`cannot ${verb} ${path} with other rules (${differ.map((k) => `${k} ${JSON.stringify(mine[k])} vs the file's ${JSON.stringify(header.rules[k] ?? null)}`).join(', ')}): leave the rule flags out to keep the file's`);
    }
  } else if (options.rules && Object.keys(options.rules).length > 0) {
    fail(`cannot ${verb} ${path} with rule overrides but no game: the file's rules are fixed (leave them out)`);
  }
  if (options.from !== undefined && options.from !== header.from) clash(verb, path, 'first deal', options.from, header.from);
  if (options.deals !== undefined && options.deals !== header.deals) clash(verb, path, 'deals', options.deals, header.deals);
  if (options.saveSolutions === true && !header.saveSolutions) clash(verb, path, '--save-solutions', true, 'solutions not saved');
  if (options.shard !== undefined || options.shardCount !== undefined) {
    const s = resolveShard(options);
    const same = (s === null && header.shard === null) || (s !== null && header.shard !== null && s.index === header.shard.index && s.count === header.shard.count);
    if (!same) clash(verb, path, 'shard', s ? `${s.index}/${s.count}` : 'none', header.shard ? `${header.shard.index}/${header.shard.count}` : 'none');
  }
}

/** Refuses limits that differ from the resumed file's. */
function checkResumeLimits(options: WinRateOptions, l: RunLimits, path: string): void {
  if (options.nodeLimit !== undefined && options.nodeLimit !== l.nodeLimit) clash('resume', path, 'node limit', options.nodeLimit, l.nodeLimit ?? 'none');
  if (options.timeLimitMs !== undefined && options.timeLimitMs !== l.timeLimitMs) clash('resume', path, 'time limit (ms)', options.timeLimitMs, l.timeLimitMs ?? 'none');
  if (options.memoryMiB !== undefined && options.memoryMiB !== l.memoryMiB) clash('resume', path, 'memory (MiB)', options.memoryMiB, l.memoryMiB ?? 'the default');
}

/**
 * The limits of a retry: each one given replaces the file's, none may be lower (a limit where the
 * file had none is lower), and at least one must be higher, or the undecided deals would stay so.
 */
function raisedLimits(options: WinRateOptions, old: RunLimits, path: string): RunLimits {
  const limits: RunLimits = {
    nodeLimit: options.nodeLimit === undefined ? old.nodeLimit : positiveOrNull('node limit', options.nodeLimit, true),
    timeLimitMs: options.timeLimitMs === undefined ? old.timeLimitMs : positiveOrNull('time limit', options.timeLimitMs, false),
    memoryMiB: options.memoryMiB === undefined ? old.memoryMiB : positiveOrNull('memory', options.memoryMiB, false),
  };
  // null is no limit: above every number. A file without a recorded memory had the solver's 1024 MiB.
  const rank = (v: number | null, none: number) => (v === null ? none : v);
  const names = { nodeLimit: 'node limit', timeLimitMs: 'time limit (ms)', memoryMiB: 'memory (MiB)' } as const;
  let raised = false;
  for (const key of ['nodeLimit', 'timeLimitMs', 'memoryMiB'] as const) {
    const none = key === 'memoryMiB' ? 1024 : Infinity;
    const mine = rank(limits[key], none);
    const theirs = rank(old[key], none);
    if (mine < theirs) fail(`cannot retry ${path} with ${names[key]} ${limits[key]}: the file was run with ${old[key] ?? 'none'}, and a retry may only raise limits`);
    if (mine > theirs) raised = true;
  }
  if (!raised) fail(`retrying ${path} needs a higher limit than the file's (a --time-limit, --node-limit or --memory above it): with the same limits its undecided deals would stay undecided`);
  return limits;
}

const isDecided = (code: number): boolean => code === CODE_WINNABLE || code === CODE_UNWINNABLE;

/**
 * Starts a retry (options.retry): a new file `out` with the retried file's header at the raised
 * limits, holding its decided records, copied byte for byte before the file appears; `builder` and
 * the returned bitmap count them.
 */
function startRetry(options: WinRateOptions, builder: SummaryBuilder): { header: ResultHeader; done: DealBitmap; writer: ResultWriter; warnings: string[]; kept: number } {
  const path = options.retry!;
  if (options.out === undefined) fail(`retrying ${path} needs a new result file for the retried run (out, --out); ${path} itself is not changed`);
  if (resolve(options.out) === resolve(path)) fail(`the output ${options.out} is the file being retried: give a new file`);
  let kept = 0;
  let retried = 0;
  let retriedMs = 0;
  const scan = scanResultFile(
    path,
    (_deal, code, _nodes, ms) => {
      if (isDecided(code)) kept++;
      else {
        retried++;
        retriedMs += ms;
      }
    },
    { details: false },
  );
  checkRunAgrees(options, scan.header, path, 'retry');
  const missing = scan.header.end - scan.header.start - scan.records;
  if (retried === 0 && missing === 0) fail(`nothing to retry: every deal of ${path} is decided`);
  const limits = raisedLimits(options, scan.header.limits, path);
  const header: ResultHeader = {
    ...restamped(scan.header),
    limits,
    retriedFrom: [...(scan.header.retriedFrom ?? []), { file: basename(path), limits: scan.header.limits, kept, retried, retriedMs: Math.round(retriedMs * 1000) / 1000 }],
  };
  const done = new DealBitmap(header.start, header.end);
  let copied = 0;
  const writer = ResultWriter.create(options.out, header, (write) => {
    let batch: Uint8Array[] = [];
    scanResultFile(
      path,
      (deal, code, nodes, ms, _length, _detail, raw) => {
        if (!isDecided(code) || copied === kept) return;
        builder.add(deal, code, nodes, ms);
        done.add(deal);
        copied++;
        batch.push(raw.slice());
        if (batch.length >= 4096) {
          write(batch);
          batch = [];
        }
      },
      { details: false },
    );
    write(batch);
  });
  return { header, done, writer, warnings: scan.warnings, kept: copied };
}

const WIN_RATE_OPTIONS = new Set([
  'game', 'rules', 'from', 'deals', 'nodeLimit', 'timeLimitMs', 'memoryMiB', 'workers', 'out', 'resume', 'retry',
  'saveSolutions', 'shard', 'shardCount', 'env', 'maxBatch', 'testFaults',
]);
const WIN_RATE_CALLBACKS = new Set(['onStart', 'onProgress', 'signal']);

/**
 * Estimates the win rate of a game over deals from .. from+deals-1: solves them in a worker pool,
 * writes each finished deal to `out` (or appends to `resume`), and returns the summary. Stops cleanly
 * on `signal` (result `interrupted`), keeping every finished deal.
 */
export async function winRate(options: WinRateOptions, callbacks: WinRateCallbacks = {}): Promise<WinRateResult> {
  const startedAt = performance.now();
  if (typeof options !== 'object' || options === null) fail('winRate needs its options, e.g. { game: "canfield", deals: 1000 }');
  if (typeof callbacks !== 'object' || callbacks === null) fail('winRate: callbacks must be an object');
  // A misspelt option (nodeLimt) would otherwise run with the default limits.
  for (const key of Object.keys(options)) if (!WIN_RATE_OPTIONS.has(key)) fail(`unknown winRate option "${key}": expected one of ${[...WIN_RATE_OPTIONS].join(', ')}`);
  for (const key of Object.keys(callbacks)) if (!WIN_RATE_CALLBACKS.has(key)) fail(`unknown winRate callback "${key}": expected one of ${[...WIN_RATE_CALLBACKS].join(', ')}`);
  for (const name of ['onStart', 'onProgress'] as const) if (callbacks[name] !== undefined && typeof callbacks[name] !== 'function') fail(`winRate: ${name} must be a function`);
  if (callbacks.signal !== undefined && !(callbacks.signal instanceof AbortSignal)) fail('winRate: signal must be an AbortSignal (new AbortController().signal)');
  if (options.saveSolutions !== undefined && typeof options.saveSolutions !== 'boolean') fail(`bad saveSolutions ${shown(options.saveSolutions)}: expected true or false`);
  for (const name of ['game', 'out', 'resume', 'retry'] as const) if (options[name] !== undefined && typeof options[name] !== 'string') fail(`bad ${name} ${shown(options[name])}: expected text`);
  if (options.workers !== undefined) checkWorkers(options.workers);
  if (options.out !== undefined && options.resume !== undefined) fail('give either a new result file (out) or one to resume, not both');
  if (options.retry !== undefined && options.resume !== undefined) fail('give either a file to retry or one to resume, not both (an interrupted retry is resumed from its own file)');
  const target = options.resume ?? options.out;
  if (target !== undefined) checkResultName(target);
  // Taken before the file is read or created: a second run on it must not read a length the first
  // is still adding to.
  const lock = target === undefined ? undefined : lockResultFile(target);
  try {
    const result = await runWinRate(options, callbacks, startedAt);
    if (lock?.warning !== undefined) result.warnings.unshift(lock.warning);
    return result;
  } finally {
    lock?.release();
  }
}

async function runWinRate(options: WinRateOptions, callbacks: WinRateCallbacks, startedAt: number): Promise<WinRateResult> {
  const builder = new SummaryBuilder();
  let run: ResolvedRun;
  let done: DealBitmap | undefined;
  let writer: ResultWriter | undefined;
  let warnings: string[] = [];
  let resumed = 0;
  if (options.resume !== undefined) {
    const path = options.resume;
    const scan = scanResultFile(
      path,
      (deal, code, nodes, ms, _length, detail) => {
        builder.add(deal, code, nodes, ms, detail);
        done!.add(deal);
      },
      { onHeader: (h) => (done = new DealBitmap(h.start, h.end)) },
    );
    warnings = scan.warnings;
    checkRunAgrees(options, scan.header, path, 'resume');
    checkResumeLimits(options, scan.header.limits, path);
    run = { header: scan.header, limits: solveOptions(scan.header.limits) };
    resumed = scan.records;
    if (scan.problem?.kind === 'corrupt') {
      // Whatever follows a corrupt record is dropped by the append below: keep a copy to look at.
      copyFileSync(path, `${path}.damaged`);
      warnings.push(`${path}: a copy of the damaged file is kept as ${path}.damaged`);
    }
    writer = ResultWriter.append(path, scan.validBytes);
  } else if (options.retry !== undefined) {
    const retry = startRetry(options, builder);
    run = { header: retry.header, limits: solveOptions(retry.header.limits) };
    done = retry.done;
    writer = retry.writer;
    warnings = retry.warnings;
    resumed = retry.kept;
  } else {
    run = newRun(options);
    done = new DealBitmap(run.header.start, run.header.end);
    if (options.out !== undefined) writer = ResultWriter.create(options.out, run.header);
  }
  const header = run.header;
  const finished = done!;
  const total = header.end - header.start;
  let solved = 0;
  callbacks.onStart?.({ total, done: builder.deals, header });
  const progress = (): WinRateProgress => {
    const elapsedMs = performance.now() - startedAt;
    const left = total - builder.deals;
    const rate = elapsedMs > 0 ? (solved * 1000) / elapsedMs : 0;
    const s = builder.summary(header);
    return {
      done: builder.deals,
      total,
      solved,
      elapsedMs,
      dealsPerSecond: rate,
      etaMs: rate > 0 ? (left / rate) * 1000 : left === 0 ? 0 : NaN,
      won: s.won,
      lost: s.lost,
      unknown: s.unknown,
      errors: s.errors,
      winRate: s.winRate,
      interval: s.interval,
    };
  };

  let outcome: { interrupted: boolean; workers: number };
  try {
    outcome = await solveDeals({
      rules: rulesOfHeader(header),
      limits: run.limits,
      saveSolutions: header.saveSolutions,
      workers: options.workers ?? defaultWorkers(),
      source: rangeSource(header.start, header.end, (d) => finished.has(d)),
      signal: callbacks.signal,
      maxBatch: options.maxBatch,
      faults: options.testFaults,
      onResults: (rows, count, details) => {
        const encoded: Uint8Array[] = [];
        for (let i = 0; i < count; i++) {
          const at = i * ROW_FIELDS;
          const deal = rows[at]!;
          const code = rows[at + 1]!;
          const nodes = rows[at + 2]!;
          const ms = rows[at + 3]!;
          const length = rows[at + 4]!;
          const detail = details.get(i);
          if (!finished.add(deal)) continue; // a retried deal that had finished after all
          builder.add(deal, code, nodes, ms, detail);
          solved++;
          if (writer) encoded.push(encodeRecord(deal, code, nodes, ms, length, detail));
        }
        writer?.write(encoded);
        callbacks.onProgress?.(progress());
      },
    });
  } finally {
    writer?.close();
  }
  const elapsedMs = performance.now() - startedAt;
  const summary = builder.summary(header);
  return {
    ...summary,
    file: writer?.path,
    resumed,
    solved,
    elapsedMs,
    dealsPerSecond: elapsedMs > 0 ? (solved * 1000) / elapsedMs : 0,
    workers: outcome.workers,
    interrupted: outcome.interrupted,
    complete: summary.missing === 0,
    warnings,
    packageVersion: PACKAGE_VERSION,
  };
}
