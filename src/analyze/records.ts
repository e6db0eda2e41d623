/**
 * Per-deal results of a win-rate run, as a compact code per deal. Millions of deals are kept in
 * columns of typed arrays (DealTable), never as millions of objects; a DealRecord object is built
 * only when one is asked for.
 */

import { fail } from '../errors';
import { isObject, isWhole, shown } from './check';

/** What became of one deal: the solver's verdict, or `error` when solving it threw. */
export type DealVerdict = 'winnable' | 'unwinnable' | 'unknown' | 'error';
/** Which limit left a deal unknown (`other`: a reason this version does not know). */
export type UnknownReason = 'nodes' | 'time' | 'memory' | 'other';

export interface DealRecord {
  deal: number;
  verdict: DealVerdict;
  /** Only for `unknown`. */
  reason?: UnknownReason;
  /** Nodes the solver expanded. */
  nodes: number;
  /** Solving time in milliseconds (the solver's own elapsedMs). */
  ms: number;
  /** Moves in the solution (0 unless winnable). */
  solutionLength: number;
  /** The solution in move notation, when the run saved solutions. */
  solution?: string[];
  /** What went wrong, for `error`. */
  error?: string;
}

/**
 * The verdict code stored in result files (docs/winrate.md). Codes are part of the file format:
 * never renumber them, only add.
 */
export const CODE_UNWINNABLE = 0;
export const CODE_WINNABLE = 1;
export const CODE_UNKNOWN_NODES = 2;
export const CODE_UNKNOWN_TIME = 3;
export const CODE_UNKNOWN_MEMORY = 4;
export const CODE_ERROR = 5;
export const CODE_UNKNOWN_OTHER = 6;
export const MAX_CODE = 6;

export function verdictOfCode(code: number): DealVerdict {
  switch (code) {
    case CODE_UNWINNABLE:
      return 'unwinnable';
    case CODE_WINNABLE:
      return 'winnable';
    case CODE_ERROR:
      return 'error';
    default:
      return 'unknown';
  }
}

export function reasonOfCode(code: number): UnknownReason | undefined {
  switch (code) {
    case CODE_UNKNOWN_NODES:
      return 'nodes';
    case CODE_UNKNOWN_TIME:
      return 'time';
    case CODE_UNKNOWN_MEMORY:
      return 'memory';
    case CODE_UNKNOWN_OTHER:
      return 'other';
    default:
      return undefined;
  }
}

export function codeOf(verdict: DealVerdict, reason?: string): number {
  switch (verdict) {
    case 'unwinnable':
      return CODE_UNWINNABLE;
    case 'winnable':
      return CODE_WINNABLE;
    case 'error':
      return CODE_ERROR;
    default:
      return reason === 'nodes' ? CODE_UNKNOWN_NODES
        : reason === 'time' ? CODE_UNKNOWN_TIME
        : reason === 'memory' ? CODE_UNKNOWN_MEMORY
        : CODE_UNKNOWN_OTHER;
  }
}

export const isUnknownCode = (code: number): boolean =>
  code === CODE_UNKNOWN_NODES || code === CODE_UNKNOWN_TIME || code === CODE_UNKNOWN_MEMORY || code === CODE_UNKNOWN_OTHER;

/** Builds the public record from its columns. */
export function makeRecord(deal: number, code: number, nodes: number, ms: number, solutionLength: number, detail?: string | string[]): DealRecord {
  const record: DealRecord = { deal, verdict: verdictOfCode(code), nodes, ms, solutionLength };
  const reason = reasonOfCode(code);
  if (reason !== undefined) record.reason = reason;
  if (code === CODE_ERROR) record.error = typeof detail === 'string' ? detail : 'unknown error';
  else if (Array.isArray(detail)) record.solution = detail;
  return record;
}

function isMoveList(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (const m of v) if (typeof m !== 'string') return false;
  return true;
}

/** Deal results in columns; grows as records are added. */
export class DealTable {
  size = 0;
  deal = new Float64Array(1024);
  code = new Uint8Array(1024);
  nodes = new Float64Array(1024);
  ms = new Float64Array(1024);
  solutionLength = new Uint32Array(1024);
  /** Error messages and saved solutions, by row. */
  readonly details = new Map<number, string | string[]>();

  /**
   * Adds one row. The columns are checked as a result file's records are (deal, code, counts), with
   * comparisons only: this runs once per deal read.
   */
  add(deal: number, code: number, nodes: number, ms: number, solutionLength: number, detail?: string | string[]): void {
    if (!isWhole(deal)) fail(`DealTable.add: bad deal ${shown(deal)}: expected a whole deal number, 0 or more`);
    if (!Number.isInteger(code) || code < 0 || code > MAX_CODE) fail(`DealTable.add: bad code ${shown(code)} for deal ${deal}: expected a verdict code from 0 to ${MAX_CODE}`);
    if (typeof nodes !== 'number' || !(nodes >= 0)) fail(`DealTable.add: bad nodes ${shown(nodes)} for deal ${deal}: expected a count, 0 or more`);
    if (typeof ms !== 'number' || !(ms >= 0) || ms === Infinity) fail(`DealTable.add: bad ms ${shown(ms)} for deal ${deal}: expected a finite duration, 0 or more`);
    if (!Number.isInteger(solutionLength) || solutionLength < 0 || solutionLength > 0xffffffff || (solutionLength > 0 && code !== CODE_WINNABLE)) {
      fail(`DealTable.add: bad solutionLength ${shown(solutionLength)} for deal ${deal}: expected a whole number, above 0 only for a winnable deal`);
    }
    if (this.size === this.deal.length) this.grow();
    const i = this.size++;
    this.deal[i] = deal;
    this.code[i] = code;
    this.nodes[i] = nodes;
    this.ms[i] = ms;
    this.solutionLength[i] = solutionLength;
    if (detail !== undefined) this.details.set(i, detail);
  }

  addRecord(r: DealRecord): void {
    if (!isObject(r)) fail(`DealTable.addRecord needs a DealRecord, not ${shown(r)}`);
    const { verdict, reason, error, solution } = r;
    if (verdict !== 'winnable' && verdict !== 'unwinnable' && verdict !== 'unknown' && verdict !== 'error') {
      fail(`DealTable.addRecord: bad verdict ${shown(verdict)} for deal ${shown(r.deal)}: expected winnable, unwinnable, unknown or error`);
    }
    if (reason !== undefined && (verdict !== 'unknown' || (reason !== 'nodes' && reason !== 'time' && reason !== 'memory' && reason !== 'other'))) {
      fail(`DealTable.addRecord: bad reason ${shown(reason)} for deal ${shown(r.deal)}: only an unknown verdict has one, nodes, time, memory or other`);
    }
    if (error !== undefined && (verdict !== 'error' || typeof error !== 'string')) fail(`DealTable.addRecord: bad error ${shown(error)} for deal ${shown(r.deal)}: only an error verdict has one, a message`);
    if (solution !== undefined && (verdict !== 'winnable' || !isMoveList(solution))) {
      fail(`DealTable.addRecord: bad solution ${shown(solution)} for deal ${shown(r.deal)}: only a winnable verdict has one, a list of moves`);
    }
    this.add(r.deal, codeOf(r.verdict, r.reason), r.nodes, r.ms, r.solutionLength, r.verdict === 'error' ? r.error : r.solution);
  }

  record(i: number): DealRecord {
    if (!Number.isInteger(i) || i < 0 || i >= this.size) {
      fail(`DealTable.record: bad row ${shown(i)}: ${this.size === 0 ? 'the table is empty' : `expected a whole number from 0 to ${this.size - 1}`}`);
    }
    return makeRecord(this.deal[i]!, this.code[i]!, this.nodes[i]!, this.ms[i]!, this.solutionLength[i]!, this.details.get(i));
  }

  *[Symbol.iterator](): IterableIterator<DealRecord> {
    for (let i = 0; i < this.size; i++) yield this.record(i);
  }

  /** Row numbers ordered by deal number. */
  orderByDeal(): Uint32Array {
    const order = new Uint32Array(this.size);
    for (let i = 0; i < this.size; i++) order[i] = i;
    const deal = this.deal;
    return order.sort((a, b) => deal[a]! - deal[b]!);
  }

  private grow(): void {
    const n = this.deal.length * 2;
    const g = <T extends Float64Array | Uint8Array | Uint32Array>(a: T, make: (n: number) => T): T => {
      const b = make(n);
      b.set(a);
      return b;
    };
    this.deal = g(this.deal, (k) => new Float64Array(k));
    this.code = g(this.code, (k) => new Uint8Array(k));
    this.nodes = g(this.nodes, (k) => new Float64Array(k));
    this.ms = g(this.ms, (k) => new Float64Array(k));
    this.solutionLength = g(this.solutionLength, (k) => new Uint32Array(k));
  }
}
