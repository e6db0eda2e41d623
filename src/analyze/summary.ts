import { fail } from '../errors';
import { shown } from './check';
import {
  CODE_ERROR,
  CODE_UNKNOWN_MEMORY,
  CODE_UNKNOWN_NODES,
  CODE_UNKNOWN_TIME,
  CODE_UNWINNABLE,
  CODE_WINNABLE,
  type DealVerdict,
  reasonOfCode,
  type UnknownReason,
  verdictOfCode,
} from './records';
import type { ResultHeader, RetriedInput, RunLimits } from './result-file';
import type { Shard } from './shards';
import { winRateInterval, wilsonInterval } from './wilson';

export interface SlowDeal {
  deal: number;
  verdict: DealVerdict;
  reason?: UnknownReason;
  ms: number;
  nodes: number;
}

export interface ErrorDeal {
  deal: number;
  message: string;
}

/**
 * What a run found: the figures `patience winrate` and `patience report` print, and `--json`.
 * Fractions are 0..1. Undecided deals (unknown and error) are counted as lost for the low end and as
 * won for the high end of `winRateRange` and `interval`, so the interval holds whatever they are.
 */
export interface RunSummary {
  game: string;
  rules: Record<string, unknown>;
  limits: RunLimits;
  /** The run the results belong to: deals from .. from+runDeals-1, all shards together. */
  from: number;
  runDeals: number;
  /** The slice of that run these results are (null: the whole run, or merged files). */
  shard: Shard | null;
  /** The deals the results cover: start .. end-1 (a whole run, a shard, or the span of merged files). */
  start: number;
  end: number;
  /** For results made by retrying other files' undecided deals at higher limits: those files (see ResultHeader). */
  retriedFrom?: RetriedInput[];
  /** Deals with a result. */
  deals: number;
  /** Deals of start..end-1 without a result (an unfinished run, a missing shard). */
  missing: number;
  won: number;
  lost: number;
  unknown: number;
  /** Deals whose solving threw (a bug): counted as undecided, like unknown. */
  errors: number;
  unknownReasons: Record<UnknownReason, number>;
  /**
   * The point estimate: the middle of `winRateRange`, i.e. (won + undecided/2) / deals; exactly
   * won / deals when every deal was decided. 0 when there are no deals.
   */
  winRate: number;
  /** won / deals and (won + undecided) / deals: the rate with every undecided deal lost, or won. */
  winRateRange: [number, number];
  /** 95% Wilson interval, low end with undecided deals lost, high end with them won. */
  interval: [number, number];
  /** The Wilson interval of won / decided deals only (unknowns left out), for reference. */
  decidedInterval: [number, number];
  confidence: number;
  totalNodes: number;
  /** Sum of the solver's time over all deals (CPU time, whatever the number of workers). */
  cpuMs: number;
  meanMs: number;
  /** Quantiles of time per deal, from a histogram (about 3% resolution). */
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The slowest deals, slowest first. */
  slowest: SlowDeal[];
  /** Deals whose solving threw (the first 20 met), by deal number. */
  errorDeals: ErrorDeal[];
}

const SLOWEST = 10;
const ERRORS_KEPT = 20;
// Time histogram: 40 buckets per decade from 1 µs to 10^7 ms.
const BUCKETS_PER_DECADE = 40;
const MIN_LOG = -3;
const BUCKETS = (7 - MIN_LOG) * BUCKETS_PER_DECADE + 1;

/** Accumulates deal results one at a time, in constant memory, into a RunSummary. */
export class SummaryBuilder {
  deals = 0;
  won = 0;
  lost = 0;
  unknown = 0;
  errors = 0;
  private readonly reasons: Record<UnknownReason, number> = { nodes: 0, time: 0, memory: 0, other: 0 };
  private totalNodes = 0;
  private cpuMs = 0;
  private maxMs = 0;
  private readonly histogram = new Float64Array(BUCKETS);
  private readonly slowest: SlowDeal[] = [];
  private readonly errorDeals: ErrorDeal[] = [];

  add(deal: number, code: number, nodes: number, ms: number, detail?: string | readonly string[]): void {
    this.deals++;
    if (code === CODE_WINNABLE) this.won++;
    else if (code === CODE_UNWINNABLE) this.lost++;
    else if (code === CODE_ERROR) {
      this.errors++;
      if (this.errorDeals.length < ERRORS_KEPT) this.errorDeals.push({ deal, message: typeof detail === 'string' ? detail : 'unknown error' });
    } else {
      this.unknown++;
      this.reasons[code === CODE_UNKNOWN_NODES ? 'nodes' : code === CODE_UNKNOWN_TIME ? 'time' : code === CODE_UNKNOWN_MEMORY ? 'memory' : 'other']++;
    }
    this.totalNodes += nodes;
    this.cpuMs += ms;
    if (ms > this.maxMs) this.maxMs = ms;
    const b = ms <= 0 ? 0 : Math.min(BUCKETS - 1, Math.max(0, Math.round((Math.log10(ms) - MIN_LOG) * BUCKETS_PER_DECADE)));
    this.histogram[b]!++;
    const slow = this.slowest;
    if (slow.length < SLOWEST || ms > slow[slow.length - 1]!.ms) {
      const entry: SlowDeal = { deal, verdict: verdictOfCode(code), ms, nodes };
      const reason = reasonOfCode(code);
      if (reason) entry.reason = reason;
      let i = slow.length;
      while (i > 0 && slow[i - 1]!.ms < ms) i--;
      slow.splice(i, 0, entry);
      if (slow.length > SLOWEST) slow.pop();
    }
  }

  private quantile(q: number): number {
    if (this.deals === 0) return 0;
    const target = q * this.deals;
    let seen = 0;
    for (let b = 0; b < BUCKETS; b++) {
      seen += this.histogram[b]!;
      if (seen >= target) return Math.min(this.maxMs, 10 ** (b / BUCKETS_PER_DECADE + MIN_LOG));
    }
    return this.maxMs;
  }

  /** The summary so far, for deals start..end-1 of a run with these rules and limits. */
  summary(about: Pick<ResultHeader, 'game' | 'rules' | 'limits' | 'from' | 'deals' | 'shard' | 'start' | 'end' | 'retriedFrom'>): RunSummary {
    const n = this.deals;
    const undecided = this.unknown + this.errors;
    const decided = this.won + this.lost;
    return {
      game: about.game,
      rules: about.rules,
      limits: about.limits,
      from: about.from,
      runDeals: about.deals,
      shard: about.shard,
      start: about.start,
      end: about.end,
      ...(about.retriedFrom ? { retriedFrom: about.retriedFrom } : {}),
      deals: n,
      missing: Math.max(0, about.end - about.start - n),
      won: this.won,
      lost: this.lost,
      unknown: this.unknown,
      errors: this.errors,
      unknownReasons: { ...this.reasons },
      winRate: n === 0 ? 0 : (this.won + undecided / 2) / n,
      winRateRange: n === 0 ? [0, 1] : [this.won / n, (this.won + undecided) / n],
      interval: winRateInterval(this.won, undecided, n),
      decidedInterval: wilsonInterval(this.won, decided),
      confidence: 0.95,
      totalNodes: this.totalNodes,
      cpuMs: this.cpuMs,
      meanMs: n === 0 ? 0 : this.cpuMs / n,
      p50Ms: this.quantile(0.5),
      p90Ms: this.quantile(0.9),
      p99Ms: this.quantile(0.99),
      maxMs: this.maxMs,
      slowest: this.slowest.map((s) => ({ ...s })),
      errorDeals: this.errorDeals.slice().sort((a, b) => a.deal - b.deal),
    };
  }
}

/** "71.24%" with enough decimals for the interval's width. */
export function formatPercent(fraction: number, decimals = 2): string {
  if (typeof fraction !== 'number' || !Number.isFinite(fraction)) fail(`formatPercent: bad fraction ${shown(fraction)}: expected a finite number (0.5 for 50%)`);
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 100) fail(`formatPercent: bad decimals ${shown(decimals)}: expected a whole number from 0 to 100`);
  return `${(fraction * 100).toFixed(decimals)}%`;
}

/** Decimals that show an interval of this width: two significant digits of its half-width. */
export function percentDecimals(interval: readonly [number, number]): number {
  if (!Array.isArray(interval) || interval.length !== 2 || !Number.isFinite(interval[0]) || !Number.isFinite(interval[1]) || interval[0] > interval[1]) {
    fail(`percentDecimals: bad interval ${Array.isArray(interval) && interval.length === 2 ? `[${interval.map(shown).join(', ')}]` : shown(interval)}: expected [low, high], two finite numbers with low <= high`);
  }
  const halfPct = ((interval[1] - interval[0]) / 2) * 100;
  if (!(halfPct > 0)) return 2;
  return Math.min(4, Math.max(1, 1 - Math.floor(Math.log10(halfPct))));
}
