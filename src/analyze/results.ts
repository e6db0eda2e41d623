import { basename, resolve } from 'node:path';
import { fail } from '../errors';
import { isObject, isWhole, shown } from './check';
import { DealTable, makeRecord, verdictOfCode, reasonOfCode } from './records';
import { canonicalJson, checkResultName, type MergedInput, PACKAGE_VERSION, type ResultHeader, ResultWriter, scanResultFile, type ScanResult } from './result-file';
import { lockResultFile } from './run-lock';
import { formatDealRange, type Shard } from './shards';
import { type RunSummary, SummaryBuilder } from './summary';

/** The deals of one or more result files, read into columns. */
export interface ResultSet {
  /** The file's header; for several files, a header for all of them together (as a merge would write). */
  header: ResultHeader;
  files: string[];
  table: DealTable;
  /** Problems met while reading (truncated or corrupt records, duplicates, gaps), one line each. */
  warnings: string[];
}

export interface ReadOptions {
  /** Read saved solutions and error messages (default true). */
  details?: boolean;
}

/**
 * Reads result files. A truncated or corrupt record ends the reading of its file: the records before
 * it are kept and `warnings` says which record and what is wrong. Several files must be parts of one
 * estimate (same game, rules and limits, no deal in two files), as for mergeResults.
 */
/** File names as given to readResults or mergeResults: a PatienceError unless a list of names. */
function fileNames(paths: unknown, what: string): string[] {
  const list = typeof paths === 'string' ? [paths] : Array.isArray(paths) ? [...(paths as unknown[])] : undefined;
  if (list === undefined || !list.every((p) => typeof p === 'string')) fail(`${what} needs result file names, not ${shown(paths)}`);
  return list as string[];
}

export function readResults(paths: string | readonly string[], options: ReadOptions = {}): ResultSet {
  if (!isObject(options)) fail('readResults: options must be an object');
  const list = fileNames(paths, 'readResults');
  if (list.length === 0) fail('no result files given');
  const table = new DealTable();
  const scans: Array<{ path: string; scan: ScanResult }> = [];
  for (const path of list) {
    const scan = scanResultFile(path, (deal, code, nodes, ms, length, detail) => table.add(deal, code, nodes, ms, length, detail), options);
    scans.push({ path, scan });
  }
  const plan = planMerge(scans);
  return { header: plan.header, files: list, table, warnings: plan.warnings };
}

/** Refuses anything but a result set as readResults makes it (a DealTable and a header). */
function checkResultSet(set: unknown, what: string): asserts set is ResultSet {
  if (!isObject(set)) fail(`${what} needs a result set (what readResults returns), not ${shown(set)}`);
  if (!(set.table instanceof DealTable)) fail(`${what}: the result set's table is ${shown(set.table)}, not a DealTable (what readResults returns)`);
  if (!isObject(set.header)) fail(`${what}: the result set's header is ${shown(set.header)}, not a result file header`);
}

/** The summary of the deals in `set`. */
export function summarize(set: ResultSet): RunSummary {
  checkResultSet(set, 'summarize');
  const builder = new SummaryBuilder();
  const t = set.table;
  for (let i = 0; i < t.size; i++) builder.add(t.deal[i]!, t.code[i]!, t.nodes[i]!, t.ms[i]!, t.details.get(i));
  return builder.summary(set.header);
}

/** A stretch of deals no input file covers. */
export interface DealGap {
  start: number;
  end: number;
}

export interface MergePlan {
  header: ResultHeader;
  /** Stretches of start..end-1 that no file covers (missing shards). */
  gaps: DealGap[];
  /** Deals inside the files' own slices without a record (unfinished runs). */
  unfinished: number;
  warnings: string[];
}

const limitText = (v: number | null, unit = ''): string => (v === null ? 'none' : `${v}${unit}`);
const shardText = (s: Shard | null): string => (s ? `shard ${s.index}/${s.count}` : 'the whole range');

/**
 * Checks that result files are parts of one estimate and works out the merged header: same game,
 * rules and limits (else refused), no deal in two files' slices (refused), shards of one run cut the
 * same way (refused otherwise), and reports stretches no file covers and unfinished files.
 */
export function planMerge(files: ReadonlyArray<{ path: string; scan: ScanResult }>): MergePlan {
  if (!Array.isArray(files)) fail(`planMerge needs a list of { path, scan } (scan: what scanResultFile returns), not ${shown(files)}`);
  if (files.length === 0) fail('no result files given');
  files.forEach((f: unknown, i) => {
    const problem = scanEntryProblem(f);
    if (problem !== null) fail(`planMerge: bad files[${i}]: ${problem}`);
  });
  const warnings: string[] = [];
  for (const f of files) warnings.push(...f.scan.warnings);
  const first = files[0]!;
  const h0 = first.scan.header;
  if (files.length === 1) {
    const unfinished = h0.end - h0.start - first.scan.records;
    if (unfinished > 0 && first.scan.writer !== undefined) warnings.push(`${first.path} lacks ${unfinished} of its ${h0.end - h0.start} deals (a run is writing it now: ${first.scan.writer})`);
    return { header: h0, gaps: [], unfinished, warnings };
  }
  const seenPaths = new Map<string, string>();
  for (const f of files) {
    const key = resolve(f.path);
    if (seenPaths.has(key)) fail(`${f.path} is given twice`);
    seenPaths.set(key, f.path);
  }
  for (const f of files.slice(1)) {
    const h = f.scan.header;
    const pair = `cannot merge ${first.path} and ${f.path}`;
    if (h.game !== h0.game) fail(`${pair}: different games (${h0.game}, ${h.game})`);
    if (canonicalJson(h.rules) !== canonicalJson(h0.rules)) {
      const keys = [...new Set([...Object.keys(h0.rules), ...Object.keys(h.rules)])].filter((k) => canonicalJson(h0.rules[k]) !== canonicalJson(h.rules[k]));
      fail(`${pair}: different rules (${keys.map((k) => `${k} ${JSON.stringify(h0.rules[k] ?? null)} vs ${JSON.stringify(h.rules[k] ?? null)}`).join(', ')})`);
    }
    const l0 = h0.limits;
    const l = h.limits;
    if (l.nodeLimit !== l0.nodeLimit || l.timeLimitMs !== l0.timeLimitMs || l.memoryMiB !== l0.memoryMiB) {
      fail(
        `${pair}: different limits (node limit ${limitText(l0.nodeLimit)} vs ${limitText(l.nodeLimit)}, ` +
          `time limit ${limitText(l0.timeLimitMs, ' ms')} vs ${limitText(l.timeLimitMs, ' ms')}, ` +
          `memory ${limitText(l0.memoryMiB, ' MiB')} vs ${limitText(l.memoryMiB, ' MiB')}): unknown verdicts would not mean the same`,
      );
    }
  }
  const versions = [...new Set(files.map((f) => f.scan.header.packageVersion))];
  if (versions.length > 1) warnings.push(`the files were written by different patience-solver versions (${versions.join(', ')})`);

  // No deal may come from two files.
  const sorted = [...files].sort((a, b) => a.scan.header.start - b.scan.header.start || a.scan.header.end - b.scan.header.end);
  let reach = sorted[0]!;
  for (const f of sorted.slice(1)) {
    const h = f.scan.header;
    const r = reach.scan.header;
    if (h.start < r.end && h.end > h.start && r.end > r.start) {
      const what = h.shard && r.shard && h.shard.index === r.shard.index && h.shard.count === r.shard.count ? ` (both are shard ${h.shard.index}/${h.shard.count})` : '';
      fail(
        `overlapping results: ${reach.path} (deals ${formatDealRange(r.start, r.end)}) and ${f.path} (deals ${formatDealRange(h.start, h.end)}) ` +
          `both cover deals ${formatDealRange(h.start, Math.min(r.end, h.end))}${what}: each deal must come from one file (continue an unfinished file with --resume instead of running it again)`,
      );
    }
    if (h.end > r.end) reach = f;
  }
  // Shards of one run (same from and deals) must be cut into the same number of slices.
  const runs = new Map<string, { path: string; shard: Shard | null }>();
  for (const f of files) {
    const h = f.scan.header;
    const key = `${h.from}:${h.deals}`;
    const other = runs.get(key);
    if (other && (other.shard?.count ?? 1) !== (h.shard?.count ?? 1)) {
      fail(
        `inconsistent shards: ${other.path} is ${shardText(other.shard)} and ${f.path} is ${shardText(h.shard)} of deals ${formatDealRange(h.from, h.from + h.deals)}: ` +
          'shards of one run must all use the same --shard N',
      );
    }
    if (!other) runs.set(key, { path: f.path, shard: h.shard });
  }
  // A shard stands for its whole run (from .. from+deals-1), so a run's first or last shard missing
  // is a gap too, not a smaller run.
  const start = Math.min(...files.map((f) => (f.scan.header.shard ? f.scan.header.from : f.scan.header.start)));
  const end = Math.max(...files.map((f) => (f.scan.header.shard ? f.scan.header.from + f.scan.header.deals : f.scan.header.end)));
  const gaps: DealGap[] = [];
  let covered = start;
  for (const f of sorted) {
    const h = f.scan.header;
    if (h.start > covered) gaps.push({ start: covered, end: h.start });
    covered = Math.max(covered, h.end);
  }
  if (end > covered) gaps.push({ start: covered, end });
  for (const g of gaps) {
    // Name the missing shards when the gap is exactly shards of a run.
    warnings.push(`no file covers deals ${formatDealRange(g.start, g.end)} (${g.end - g.start} deals): a shard is missing?`);
  }
  let unfinished = 0;
  for (const f of files) {
    const h = f.scan.header;
    const lacking = h.end - h.start - f.scan.records;
    unfinished += lacking;
    if (lacking > 0) {
      const why = f.scan.writer !== undefined ? `a run is writing it now: ${f.scan.writer}` : `an unfinished run: continue it with --resume ${f.path}`;
      warnings.push(`${f.path} lacks ${lacking} of its ${h.end - h.start} deals (${why})`);
    }
  }
  const mergedFrom: MergedInput[] = files.map((f) => ({
    file: basename(f.path),
    shard: f.scan.header.shard,
    start: f.scan.header.start,
    end: f.scan.header.end,
    records: f.scan.records,
  }));
  const { retriedFrom: _first, ...base } = restamped(h0);
  const header: ResultHeader = {
    ...base,
    from: start,
    deals: end - start,
    shard: null,
    start,
    end,
    saveSolutions: files.every((f) => f.scan.header.saveSolutions),
    mergedFrom,
  };
  // Inputs made by retrying other files pass on what they retried.
  const retriedFrom = files.flatMap((f) => f.scan.header.retriedFrom ?? []);
  if (retriedFrom.length > 0) header.retriedFrom = retriedFrom;
  return { header, gaps, unfinished, warnings };
}

/** What is wrong with one entry of planMerge's list, or null: the parts of a scan planMerge reads. */
function scanEntryProblem(f: unknown): string | null {
  if (!isObject(f)) return `expected { path, scan }, not ${shown(f)}`;
  if (typeof f.path !== 'string') return `its path is ${shown(f.path)}, not a file name`;
  const scan = f.scan;
  if (!isObject(scan)) return `its scan is ${shown(scan)}, not what scanResultFile returns`;
  if (!isWhole(scan.records) || !Array.isArray(scan.warnings)) return 'its scan lacks records or warnings (use what scanResultFile returns)';
  const h = scan.header;
  if (!isObject(h)) return `its scan's header is ${shown(h)}, not a result file header`;
  if (typeof h.game !== 'string' || !isObject(h.rules) || !isObject(h.limits)) return "its scan's header lacks the game, rules or limits";
  if (!isWhole(h.from) || !isWhole(h.deals) || !isWhole(h.start) || !isWhole(h.end) || h.end < h.start) return "its scan's header has no whole deal range (from, deals, start, end)";
  if (h.shard !== null && !(isObject(h.shard) && isWhole(h.shard.index) && isWhole(h.shard.count))) return "its scan's header has a bad shard";
  return null;
}

/** A copy of a header stamped with this version and the current time (for a file derived from it). */
export function restamped(h: ResultHeader): ResultHeader {
  return { ...h, packageVersion: PACKAGE_VERSION, createdAt: new Date().toISOString() };
}

export interface MergeReport {
  out: string;
  header: ResultHeader;
  summary: RunSummary;
  records: number;
  gaps: DealGap[];
  unfinished: number;
  warnings: string[];
}

/**
 * Merges result files (shards of one run, or runs over disjoint deal ranges) into one file `out`,
 * which must not exist yet. Refuses files that disagree (game, rules, limits), overlap, or are
 * inconsistent shards; reports gaps and unfinished files in `warnings`. Records are copied byte for
 * byte (their CRCs stay valid), file by file in deal order of the files.
 */
export function mergeResults(paths: readonly string[], options: { out: string }): MergeReport {
  if (typeof paths === 'string') fail('mergeResults needs a list of result files, not one name');
  paths = fileNames(paths, 'mergeResults');
  if (typeof options?.out !== 'string') fail('mergeResults needs { out: FILE }, the merged file to write');
  if (paths.length === 0) fail('merge needs result files to merge');
  const outKey = resolve(options.out);
  for (const p of paths) if (resolve(p) === outKey) fail(`the output ${options.out} is also an input`);
  const scans = paths.map((path) => ({ path, scan: scanResultFile(path, undefined, { details: false }) }));
  const plan = planMerge(scans);
  checkResultName(options.out);
  const lock = lockResultFile(options.out);
  if (lock.warning !== undefined) plan.warnings.unshift(lock.warning);
  const builder = new SummaryBuilder();
  let records = 0;
  let writer: ResultWriter | undefined;
  try {
    writer = ResultWriter.create(options.out, plan.header);
    const order = [...scans].sort((a, b) => a.scan.header.start - b.scan.header.start);
    for (const { path } of order) {
      let batch: Uint8Array[] = [];
      scanResultFile(path, (deal, code, nodes, ms, _length, detail, raw) => {
        builder.add(deal, code, nodes, ms, detail);
        batch.push(raw.slice());
        records++;
        if (batch.length >= 4096) {
          writer!.write(batch);
          batch = [];
        }
      });
      writer.write(batch);
    }
  } finally {
    writer?.close();
    lock.release();
  }
  return { out: options.out, header: plan.header, summary: builder.summary(plan.header), records, gaps: plan.gaps, unfinished: plan.unfinished, warnings: plan.warnings };
}

/** The columns of `csvLines`. */
export const CSV_COLUMNS = ['deal', 'verdict', 'reason', 'nodes', 'ms', 'solution_length', 'solution', 'error'] as const;

function csvField(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The deals of `set` as CSV lines (with a header line first, no line ends), ordered by deal number:
 * deal, verdict, reason (for unknown), nodes, ms, solution_length, solution (moves joined by "; ",
 * when saved), error (the message, for error).
 */
export function csvLines(set: ResultSet): IterableIterator<string> {
  // Checked now, not at the first line read.
  checkResultSet(set, 'csvLines');
  return csvRows(set);
}

function* csvRows(set: ResultSet): IterableIterator<string> {
  yield CSV_COLUMNS.join(',');
  const t = set.table;
  for (const i of t.orderByDeal()) {
    const code = t.code[i]!;
    const detail = t.details.get(i);
    const record = makeRecord(t.deal[i]!, code, t.nodes[i]!, t.ms[i]!, t.solutionLength[i]!, detail);
    yield [
      String(record.deal),
      verdictOfCode(code),
      reasonOfCode(code) ?? '',
      String(record.nodes),
      String(record.ms),
      String(record.solutionLength),
      csvField(record.solution ? record.solution.join('; ') : ''),
      csvField(record.error ?? ''),
    ].join(',');
  }
}
