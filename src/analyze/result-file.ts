/**
 * Result files of win-rate runs (docs/winrate.md has the byte-level description).
 *
 * A file is a plain MessagePack stream: one header map, then one array per finished deal, appended
 * as deals finish. Every record, header included, ends with its own CRC-32 written as a MessagePack
 * uint32 (the five bytes 0xce + 4 bytes big-endian), computed over all the record's bytes before it.
 * So any MessagePack reader can read the file, a torn last record (kill -9, power loss) is told apart
 * from a whole one, and a flipped byte anywhere is caught instead of being counted as a result.
 */
import { closeSync, fstatSync, fsyncSync, lstatSync, openSync, statSync, readSync, renameSync, truncateSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { Decoder, Encoder } from '@msgpack/msgpack';
import pkg from '../../package.json';
import { fail, PatienceError } from '../errors';
import { isObject, isWhole, shown } from './check';
import { msgpackItemEnd as msgpackEnd } from './msgpack-scan';
import { CODE_ERROR, CODE_WINNABLE, MAX_CODE } from './records';
import { checkShard, MAX_RUN_DEALS, type Shard, shardSlice } from './shards';
import { MAX_DEAL_NUMBER } from '../cards/shuffle';
import { changedOptions, resolveRules, type Rules } from '../rules/rules';
import { liveWriter } from './run-lock';

export const RESULT_FORMAT = 'patience-solver results';
export const RESULT_VERSION = 1;
export const PACKAGE_VERSION: string = pkg.version;

/** Search limits of a run, as recorded: null means none. */
export interface RunLimits {
  nodeLimit: number | null;
  timeLimitMs: number | null;
  memoryMiB: number | null;
}

/** One input of a merged file. */
export interface MergedInput {
  file: string;
  shard: Shard | null;
  start: number;
  end: number;
  /** Deal records taken from it. */
  records: number;
}

/**
 * What a file made by retrying another holds of it (`winrate --retry`): the file's decided deals
 * were copied, its undecided ones solved again at higher limits.
 */
export interface RetriedInput {
  file: string;
  /** The limits the retried file was run with. */
  limits: RunLimits;
  /** Decided deal records copied from it. */
  kept: number;
  /** Its undecided deals (unknown, error), to be solved again. */
  retried: number;
  /** The solving time those undecided deals had taken, ms (their records are replaced). */
  retriedMs: number;
}

/** The first record of a result file: what was run, so that files can be resumed, checked and merged. */
export interface ResultHeader {
  format: typeof RESULT_FORMAT;
  version: number;
  /** The patience-solver version that wrote the file. */
  packageVersion: string;
  game: string;
  /** The resolved rules, as rulesToJson prints them. */
  rules: Record<string, unknown>;
  /** The whole run: deals from .. from+deals-1 (all shards together). */
  from: number;
  deals: number;
  /** This file's slice of the run, or null for the whole range. */
  shard: Shard | null;
  /** This file's deals: start .. end-1. */
  start: number;
  end: number;
  limits: RunLimits;
  /** Whether winnable records carry their solution. */
  saveSolutions: boolean;
  /** ISO time the file was started. */
  createdAt: string;
  /** For a merged file: the files it was made from. */
  mergedFrom?: MergedInput[];
  /** For a file made by retrying others' undecided deals at higher limits: each file retried, oldest first. */
  retriedFrom?: RetriedInput[];
}

/** Where reading a file stopped early. The records before `record` were kept. */
export interface ReadProblem {
  kind: 'truncated' | 'corrupt';
  /** 1-based number of the deal record that could not be read (the header is record 0). */
  record: number;
  /** Byte offset where that record starts. */
  offset: number;
  /** One line naming the file, the record, what is wrong and what was kept. */
  message: string;
}

/** Called for each whole, checked deal record; `raw` is the record's bytes (valid only during the call). */
export type RecordVisitor = (deal: number, code: number, nodes: number, ms: number, solutionLength: number, detail: string | string[] | undefined, raw: Uint8Array) => void;

export interface ScanResult {
  header: ResultHeader;
  /** Deal records read and kept (duplicates excluded). */
  records: number;
  /** Bytes of the valid prefix: the header and every whole record up to the first bad one. */
  validBytes: number;
  fileBytes: number;
  problem?: ReadProblem;
  /** Deal numbers found in more than one record (only the first was kept). */
  duplicates: number[];
  /** Every warning, one line each (the problem's message, duplicates). */
  warnings: string[];
  /** The live run on this machine writing the file as it was read (`liveWriter`), if any. */
  writer?: string;
}

const CRC_TAIL = 5;
const CRC_PLACEHOLDER = 0xffffffff;
const CHUNK_BYTES = 1 << 22;
/** A record longer than this is corrupt (a saved solution of thousands of moves is far below it). */
const MAX_RECORD_BYTES = 1 << 24;

const encoder = new Encoder();

/** Writes the CRC into the record's last four bytes, which the encoder wrote as uint32 0xffffffff. */
function seal(bytes: Uint8Array): Uint8Array {
  const n = bytes.length;
  if (bytes[n - CRC_TAIL] !== 0xce) throw new Error('result record does not end with a uint32 placeholder');
  const crc = crc32(bytes.subarray(0, n - CRC_TAIL));
  new DataView(bytes.buffer, bytes.byteOffset, n).setUint32(n - 4, crc);
  return bytes;
}

/** Null when the record's CRC matches, else what is wrong. */
function crcProblem(buf: Uint8Array, start: number, end: number): string | null {
  if (end - start < CRC_TAIL + 1 || buf[end - CRC_TAIL] !== 0xce) return 'it does not end with a CRC-32';
  const stored = new DataView(buf.buffer, buf.byteOffset).getUint32(end - 4);
  const actual = crc32(buf.subarray(start, end - CRC_TAIL));
  return stored === actual ? null : `checksum mismatch (stored ${hex(stored)}, computed ${hex(actual)})`;
}

const hex = (n: number): string => '0x' + n.toString(16).padStart(8, '0');

const limitsMap = (l: RunLimits) => ({ nodeLimit: l.nodeLimit, timeLimitMs: l.timeLimitMs, memoryMiB: l.memoryMiB });

export function encodeHeader(header: ResultHeader): Uint8Array {
  // Key order is fixed so that equal headers give equal bytes; `crc` is last, as in every record.
  const map: Record<string, unknown> = {
    format: header.format,
    version: header.version,
    packageVersion: header.packageVersion,
    game: header.game,
    rules: header.rules,
    from: header.from,
    deals: header.deals,
    shard: header.shard ? [header.shard.index, header.shard.count] : null,
    start: header.start,
    end: header.end,
    limits: limitsMap(header.limits),
    saveSolutions: header.saveSolutions,
    createdAt: header.createdAt,
  };
  if (header.mergedFrom) {
    map.mergedFrom = header.mergedFrom.map((m) => ({
      file: m.file,
      shard: m.shard ? [m.shard.index, m.shard.count] : null,
      start: m.start,
      end: m.end,
      records: m.records,
    }));
  }
  if (header.retriedFrom) {
    map.retriedFrom = header.retriedFrom.map((r) => ({ file: r.file, limits: limitsMap(r.limits), kept: r.kept, retried: r.retried, retriedMs: r.retriedMs }));
  }
  map.crc = CRC_PLACEHOLDER;
  return seal(encoder.encode(map));
}

/**
 * One deal record: [deal, code, nodes, ms, solutionLength, crc], or with a detail before the CRC
 * (the error message for code 5, the solution's moves for a winnable deal of a --save-solutions run).
 */
export function encodeRecord(deal: number, code: number, nodes: number, ms: number, solutionLength: number, detail?: string | readonly string[]): Uint8Array {
  // Microseconds are plenty, and a rounded number often encodes shorter.
  const roundedMs = Math.round(ms * 1000) / 1000;
  const fields: unknown[] = detail === undefined ? [deal, code, nodes, roundedMs, solutionLength, CRC_PLACEHOLDER] : [deal, code, nodes, roundedMs, solutionLength, detail, CRC_PLACEHOLDER];
  return seal(encoder.encode(fields));
}

/** A new header for a run. */
export function makeHeader(fields: {
  game: string;
  rules: Record<string, unknown>;
  from: number;
  deals: number;
  shard: Shard | null;
  limits: RunLimits;
  saveSolutions: boolean;
}): ResultHeader {
  const { start, end } = shardSlice(fields.from, fields.deals, fields.shard);
  return {
    format: RESULT_FORMAT,
    version: RESULT_VERSION,
    packageVersion: PACKAGE_VERSION,
    game: fields.game,
    rules: fields.rules,
    from: fields.from,
    deals: fields.deals,
    shard: fields.shard,
    start,
    end,
    limits: fields.limits,
    saveSolutions: fields.saveSolutions,
    createdAt: new Date().toISOString(),
  };
}

/** JSON with object keys sorted: equal values give equal text whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const isLimit = (v: unknown): boolean => v === null || (typeof v === 'number' && v > 0);

function parseShardField(v: unknown): Shard | null | undefined {
  if (v === null) return null;
  if (Array.isArray(v) && v.length === 2 && isWhole(v[0]) && isWhole(v[1]) && v[0] >= 1 && v[0] <= v[1]) return { index: v[0], count: v[1] };
  return undefined;
}

/**
 * The rules a header names: its game's preset with the options that differ from it as overrides
 * (giving `draw` to canister is refused). A PatienceError when the game or an option is unknown or
 * the options do not fit together.
 */
export function headerRules(header: Pick<ResultHeader, 'game' | 'rules'>): Rules {
  return resolveRules(header.game, changedOptions(header.game, header.rules));
}

/** Checks a decoded header; returns what is wrong, or the header. */
function parseHeader(value: unknown, name: string): ResultHeader {
  const bad = (what: string): never => fail(`${name}: not a usable patience-solver result file: the header ${what}`);
  if (!isObject(value)) return bad('is not a map');
  if (value.format !== RESULT_FORMAT) fail(`${name}: not a patience-solver result file (its first record has format ${JSON.stringify(value.format ?? null)})`);
  if (!isWhole(value.version)) return bad('has no version');
  if (value.version > RESULT_VERSION) {
    fail(`${name}: written by a newer patience-solver (${String(value.packageVersion)}, result format ${value.version}); this one (${PACKAGE_VERSION}) reads format ${RESULT_VERSION}`);
  }
  if (typeof value.game !== 'string') return bad('has no game');
  if (!isObject(value.rules)) return bad('has no rules');
  for (const key of ['from', 'deals', 'start', 'end'] as const) if (!isWhole(value[key])) bad(`has a bad ${key}`);
  const shard = parseShardField(value.shard);
  if (shard === undefined) return bad('has a bad shard');
  const limits = parseLimits(value.limits);
  if (!limits) return bad('has bad limits');
  const header: ResultHeader = {
    format: RESULT_FORMAT,
    version: value.version,
    packageVersion: typeof value.packageVersion === 'string' ? value.packageVersion : '?',
    game: value.game,
    rules: value.rules,
    from: value.from as number,
    deals: value.deals as number,
    shard,
    start: value.start as number,
    end: value.end as number,
    limits,
    saveSolutions: value.saveSolutions === true,
    createdAt: typeof value.createdAt === 'string' ? value.createdAt : '',
  };
  if (header.deals < 1 || header.deals > MAX_RUN_DEALS) bad(`has a bad deals (${header.deals}: a run has 1 to ${MAX_RUN_DEALS})`);
  if (header.from + header.deals - 1 > MAX_DEAL_NUMBER) bad('has deals past the last deal number 2^53-1');
  if (shard) {
    checkShard(shard);
    if (shard.count > header.deals) bad(`says shard ${shard.index}/${shard.count} of a run of ${header.deals} deals: some shards would have none`);
  }
  // A file holds exactly its shard's slice of the run, or without a shard (a whole run, a merge, a retry) all of it.
  const slice = shardSlice(header.from, header.deals, shard);
  if (slice.start !== header.start || slice.end !== header.end) {
    bad(shard ? `says shard ${shard.index}/${shard.count} but its deals are not that shard's` : `holds deals ${header.start}-${header.end - 1} of a run of deals ${header.from}-${header.from + header.deals - 1} but names no shard`);
  }
  try {
    headerRules(header);
  } catch (e) {
    if (!(e instanceof PatienceError)) throw e;
    fail(`${name}: the header's rules are not usable: ${e.message}`);
  }
  if (Array.isArray(value.mergedFrom)) {
    header.mergedFrom = value.mergedFrom.filter(isObject).map((m) => ({
      file: String(m.file),
      shard: parseShardField(m.shard) ?? null,
      start: Number(m.start),
      end: Number(m.end),
      records: Number(m.records),
    }));
  }
  if (value.retriedFrom !== undefined) {
    const list = value.retriedFrom;
    if (!Array.isArray(list)) return bad('has a bad retriedFrom');
    header.retriedFrom = list.map((r) => {
      const l = isObject(r) ? parseLimits(r.limits) : undefined;
      if (!isObject(r) || !l || !isWhole(r.kept) || !isWhole(r.retried) || typeof r.retriedMs !== 'number' || !(r.retriedMs >= 0)) return bad('has a bad retriedFrom');
      return { file: String(r.file), limits: l, kept: r.kept, retried: r.retried, retriedMs: r.retriedMs };
    });
  }
  return header;
}

function parseLimits(v: unknown): RunLimits | undefined {
  if (!isObject(v) || !isLimit(v.nodeLimit) || !isLimit(v.timeLimitMs) || !isLimit(v.memoryMiB)) return undefined;
  return { nodeLimit: v.nodeLimit as number | null, timeLimitMs: v.timeLimitMs as number | null, memoryMiB: v.memoryMiB as number | null };
}

/** What is wrong with a decoded deal record, or null. */
function recordProblem(a: unknown, header: ResultHeader): string | null {
  if (!Array.isArray(a)) return 'it is not an array';
  if (a.length !== 6 && a.length !== 7) return `it has ${a.length} fields, not 6 or 7`;
  const [deal, code, nodes, ms, length] = a as unknown[];
  if (!isWhole(deal) || deal < header.start || deal >= header.end) return `deal number ${shown(deal)} is outside the file's deals ${header.start}-${header.end - 1}`;
  if (!isWhole(code) || code > MAX_CODE) return `verdict code ${shown(code)} is unknown`;
  if (typeof nodes !== 'number' || !(nodes >= 0)) return `node count ${shown(nodes)} is not a count`;
  if (typeof ms !== 'number' || !(ms >= 0) || !Number.isFinite(ms)) return `time ${shown(ms)} ms is not a duration`;
  if (!isWhole(length) || (length > 0 && code !== CODE_WINNABLE)) return `solution length ${shown(length)} does not fit its verdict`;
  if (a.length === 7) {
    const detail = a[5] as unknown;
    if (code === CODE_ERROR ? typeof detail !== 'string' : !(code === CODE_WINNABLE && Array.isArray(detail) && detail.every((m) => typeof m === 'string'))) {
      return 'its detail field does not fit its verdict';
    }
  }
  return null;
}

/** The kept prefix of a result file, for messages. */
function keptText(records: number): string {
  return records === 1 ? 'kept the 1 record before it' : `kept the ${records} records before it`;
}

/** A set of deal numbers over one run's range, one bit each. */
export class DealBitmap {
  private readonly bits: Uint8Array;
  constructor(
    readonly start: number,
    readonly end: number,
  ) {
    this.bits = new Uint8Array(Math.ceil(Math.max(0, end - start) / 8));
  }
  has(deal: number): boolean {
    const i = deal - this.start;
    return i >= 0 && deal < this.end && (this.bits[i >>> 3]! & (1 << (i & 7))) !== 0;
  }
  /** Marks `deal`; false if it was marked already. */
  add(deal: number): boolean {
    const i = deal - this.start;
    const mask = 1 << (i & 7);
    if (this.bits[i >>> 3]! & mask) return false;
    this.bits[i >>> 3]! |= mask;
    return true;
  }
}

/**
 * Reads a result file record by record, in bounded memory. The header must be whole and valid (else
 * a PatienceError); a bad deal record ends the reading, keeps the records before it, and is
 * described in `problem` and `warnings`. `options.details: false` skips error messages and saved
 * solutions (faster, less memory); `options.onHeader` sees the header before any record.
 */
export function scanResultFile(path: string, visit?: RecordVisitor, options: { details?: boolean; onHeader?: (header: ResultHeader) => void } = {}): ScanResult {
  if (typeof path !== 'string') fail(`scanResultFile needs a result file name, not ${shown(path)}`);
  if (visit !== undefined && typeof visit !== 'function') fail(`scanResultFile: bad visit ${shown(visit)}: expected a function called with each record, or undefined`);
  if (!isObject(options)) fail(`scanResultFile: bad options ${shown(options)}: expected an object`);
  if (options.onHeader !== undefined && typeof options.onHeader !== 'function') fail(`scanResultFile: bad onHeader ${shown(options.onHeader)}: expected a function called with the header`);
  const wantDetails = options.details !== false;
  let fd: number;
  try {
    // Looked at before opening: opening a pipe with no writer blocks for good, signals unheard.
    const kind = statSync(path);
    if (!kind.isFile() && !kind.isDirectory()) fail(`cannot read result file ${path}: not a regular file`);
    fd = openSync(path, 'r');
  } catch (e) {
    if (e instanceof PatienceError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    fail(`cannot read result file ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (e as Error).message}`);
  }
  try {
    // Linux opens a directory for reading (the read fails), and a device or a pipe has no end to scan to.
    const stat = fstatSync(fd);
    if (stat.isDirectory()) fail(`cannot read result file ${path}: it is a directory`);
    if (!stat.isFile()) fail(`cannot read result file ${path}: not a regular file`);
    const fileBytes = stat.size;
    let buf = new Uint8Array(Math.min(CHUNK_BYTES, Math.max(fileBytes, 16)));
    let bufFileOffset = 0; // file offset of buf[0]
    let bufLength = 0;
    let eof = false;
    const fill = (pos: number): number => {
      // Keeps buf[pos..] and reads more after it; returns the new position of `pos`.
      const keep = bufLength - pos;
      if (keep > 0 && pos > 0) buf.copyWithin(0, pos, bufLength);
      if (keep >= buf.length / 2) {
        const bigger = new Uint8Array(buf.length * 2);
        bigger.set(buf.subarray(0, keep));
        buf = bigger;
      }
      bufFileOffset += pos;
      bufLength = keep;
      while (bufLength < buf.length && !eof) {
        const n = readSync(fd, buf, bufLength, buf.length - bufLength, bufFileOffset + bufLength);
        if (n === 0) eof = true;
        bufLength += n;
      }
      return 0;
    };
    fill(0);
    if (fileBytes === 0) fail(`${path}: empty file: not a result file (a run that was stopped before it wrote its header?)`);
    // The header.
    let end = msgpackEnd(buf, 0, bufLength);
    while (end === -1 && !eof && bufLength < MAX_RECORD_BYTES) {
      fill(0);
      end = msgpackEnd(buf, 0, bufLength);
    }
    if (end < 0) fail(`${path}: not a usable result file: its header is ${end === -1 ? 'cut off (truncated)' : 'not MessagePack'}`);
    const headerCrc = crcProblem(buf, 0, end);
    let headerValue: unknown;
    try {
      headerValue = decoder.decode(buf.subarray(0, end));
    } catch {
      fail(`${path}: not a usable result file: its header cannot be decoded`);
    }
    if (headerCrc && isObject(headerValue) && headerValue.format === RESULT_FORMAT) fail(`${path}: the header is corrupt: ${headerCrc}`);
    const header = parseHeader(headerValue, path);
    if (headerCrc) fail(`${path}: the header is corrupt: ${headerCrc}`);
    options.onHeader?.(header);

    const seen = new DealBitmap(header.start, header.end);
    const duplicates: number[] = [];
    let pos = end;
    let records = 0;
    let recordNumber = 0;
    let problem: ReadProblem | undefined;
    for (;;) {
      if (pos >= bufLength) {
        if (eof) break;
        pos = fill(pos);
        if (bufLength === 0) break;
        continue;
      }
      const recordOffset = bufFileOffset + pos;
      recordNumber++;
      let e = msgpackEnd(buf, pos, bufLength);
      while (e === -1 && !eof && bufLength - pos < MAX_RECORD_BYTES) {
        pos = fill(pos);
        e = msgpackEnd(buf, pos, bufLength);
      }
      let why: string | null = null;
      let kind: ReadProblem['kind'] = 'corrupt';
      let a: unknown;
      if (e === -1 && eof) {
        kind = 'truncated';
        why = `the file ends ${bufLength - pos} bytes into it (an interrupted write)`;
      } else if (e === -1) {
        why = `it is longer than ${MAX_RECORD_BYTES} bytes`;
      } else if (e === -2) {
        why = 'it is not MessagePack';
      } else if (e - pos > MAX_RECORD_BYTES) {
        why = `it is longer than ${MAX_RECORD_BYTES} bytes`;
      } else {
        why = crcProblem(buf, pos, e);
        if (!why) {
          try {
            a = decoder.decode(buf.subarray(pos, e));
            why = recordProblem(a, header);
          } catch (err) {
            why = `it cannot be decoded (${(err as Error).message})`;
          }
        }
      }
      if (why !== null) {
        const rest = fileBytes - recordOffset;
        const message =
          `${path}: deal record ${recordNumber} (byte ${recordOffset}) is ${kind === 'truncated' ? 'truncated' : 'corrupt'}: ${why}; ` +
          `${keptText(records)}` +
          (kind === 'truncated' ? '' : ` and ignored the remaining ${rest} bytes`);
        problem = { kind, record: recordNumber, offset: recordOffset, message };
        break;
      }
      const r = a as [number, number, number, number, number, ...unknown[]];
      const deal = r[0];
      if (!seen.add(deal)) {
        duplicates.push(deal);
      } else {
        records++;
        if (visit) {
          const detail = wantDetails && r.length === 7 ? (r[5] as string | string[]) : undefined;
          visit(deal, r[1], r[2], r[3], r[4], detail, buf.subarray(pos, e));
        }
      }
      pos = e;
    }
    const validBytes = problem ? problem.offset : fileBytes;
    const warnings: string[] = [];
    if (problem) warnings.push(problem.message);
    if (duplicates.length > 0) {
      warnings.push(
        `${path}: ${duplicates.length} deal${duplicates.length === 1 ? '' : 's'} recorded more than once (${duplicates.slice(0, 5).join(', ')}${duplicates.length > 5 ? ', ...' : ''}); kept the first record of each`,
      );
    }
    const writer = liveWriter(path);
    return { header, records, validBytes, fileBytes, problem, duplicates, warnings, ...(writer === undefined ? {} : { writer }) };
  } finally {
    closeSync(fd);
  }
}

const decoder = new Decoder();

/** Seconds between fsyncs while appending: a power cut loses at most this much; a killed process loses nothing written. */
const SYNC_INTERVAL_MS = 2000;

/** Refuses a result file name that cannot be one: none, or standard output. */
export function checkResultName(path: string): void {
  if (path === '') fail('a result file needs a name (--out FILE)');
  if (path === '-') fail('a result file is written to a named file, not to standard output: give --out FILE');
}

/**
 * Appends records to a result file. Each append is one write() of whole records, so a killed
 * process leaves whole records (the kernel keeps what was written); fsync every couple of seconds
 * bounds what a power cut can lose, and readers drop a torn last record anyway.
 */
export class ResultWriter {
  private lastSync = Date.now();
  private closed = false;

  private constructor(
    readonly path: string,
    private fd: number,
  ) {}

  /**
   * Starts a new file with `header`; refuses to overwrite an existing file. `initial`, if given, is
   * called with a function that writes records after the header before the file appears under
   * `path` (records copied from another file: all of them or none are there).
   */
  static create(path: string, header: ResultHeader, initial?: (write: (records: readonly Uint8Array[]) => void) => void): ResultWriter {
    checkResultName(path);
    // lstat, not exists: a dangling link is there too, and renaming over it would drop it quietly.
    let there;
    try {
      there = lstatSync(path, { throwIfNoEntry: false });
    } catch (e) {
      fail(`cannot create result file ${path}: ${(e as Error).message}`); // ENOTDIR, ENAMETOOLONG, ...
    }
    if (there?.isDirectory()) fail(`${path} is a directory: give the result file's own name (say ${join(path, 'run.msgpack')})`);
    if (there !== undefined) fail(`${path} already exists: remove it first or give another name (a winrate run's file is continued with winrate --resume ${path})`);
    // The header goes to a temporary file that is renamed into place, so a file under `path`
    // always has a whole header.
    const temp = `${path}.partial-${process.pid}`;
    let fd: number;
    try {
      fd = openSync(temp, 'wx');
    } catch (e) {
      fail(`cannot create result file ${path}: ${(e as Error).message}`);
    }
    try {
      writeAll(fd, encodeHeader(header));
      initial?.((records) => writeAll(fd, concat(records)));
      fsyncSync(fd);
      closeSync(fd);
      renameSync(temp, path);
    } catch (e) {
      try {
        unlinkSync(temp);
      } catch {
        /* nothing to clean */
      }
      throw e instanceof PatienceError ? e : new PatienceError(`cannot write result file ${path}: ${(e as Error).message}`);
    }
    return new ResultWriter(path, openSync(path, 'a'));
  }

  /** Continues a file after its first `validBytes` bytes (whatever follows, a torn record, is cut off). */
  static append(path: string, validBytes: number): ResultWriter {
    try {
      truncateSync(path, validBytes);
      return new ResultWriter(path, openSync(path, 'a'));
    } catch (e) {
      fail(`cannot append to result file ${path}: ${(e as Error).message}`);
    }
  }

  /** Appends encoded records (from encodeRecord) in one write. */
  write(records: readonly Uint8Array[]): void {
    if (this.closed) throw new Error(`result file ${this.path} is closed`);
    if (records.length === 0) return;
    writeAll(this.fd, concat(records));
    if (Date.now() - this.lastSync >= SYNC_INTERVAL_MS) this.sync();
  }

  sync(): void {
    fsyncSync(this.fd);
    this.lastSync = Date.now();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    fsyncSync(this.fd);
    closeSync(this.fd);
  }
}

function concat(records: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const r of records) total += r.length;
  const all = new Uint8Array(total);
  let at = 0;
  for (const r of records) {
    all.set(r, at);
    at += r.length;
  }
  return all;
}

function writeAll(fd: number, bytes: Uint8Array): void {
  let at = 0;
  while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
}
