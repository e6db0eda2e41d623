import { changedOptions, formatPercent, percentDecimals, type RunSummary, type WinRateResult } from '../index';
import { formatDuration } from './progress';

/** 0.71245 -> "71.25%" with as many decimals as the interval's width deserves. */
function pct(fraction: number, interval: readonly [number, number]): string {
  return formatPercent(fraction, percentDecimals(interval));
}

function ms(value: number): string {
  if (value >= 60_000) return formatDuration(value / 1000);
  if (value >= 1000) return `${(value / 1000).toFixed(1)} s`;
  if (value >= 10) return `${Math.round(value)} ms`;
  return `${value.toFixed(value >= 1 ? 1 : 2)} ms`;
}

function limitsText(limits: RunSummary['limits']): string {
  const parts: string[] = [];
  if (limits.nodeLimit !== null) parts.push(`node limit ${limits.nodeLimit}`);
  if (limits.timeLimitMs !== null) parts.push(`time limit ${limits.timeLimitMs / 1000} s`);
  if (limits.memoryMiB !== null) parts.push(`table ${limits.memoryMiB} MiB`);
  return parts.length ? `${parts.join(', ')} per deal` : 'no limits';
}

/** The rules options a run changed from its preset, e.g. " (spaces auto-reserve-then-waste)"; empty for the preset itself. */
function overridesText(s: RunSummary): string {
  const changed = Object.entries(changedOptions(s.game, s.rules));
  return changed.length > 0 ? ` (${changed.map(([k, v]) => `${k} ${String(v)}`).join(', ')})` : '';
}

const range = (start: number, end: number): string => (end - start === 1 ? `deal ${start}` : `deals ${start}-${end - 1}`);

/** The two-line figure of the win rate and its interval, for progress and summaries. */
export function winRateText(s: Pick<RunSummary, 'winRate' | 'interval'>): string {
  return `win ${pct(s.winRate, s.interval)} [${pct(s.interval[0], s.interval)}, ${pct(s.interval[1], s.interval)}]`;
}

/**
 * The summary `winrate` and `report` print: counts, the win rate with its 95% interval (undecided
 * deals counted as lost for the low end and as won for the high end), speed and the slowest deals.
 */
export function formatRunSummary(s: RunSummary, run?: WinRateResult): string[] {
  const lines: string[] = [];
  const share = (n: number) => (s.deals > 0 ? `  ${formatPercent(n / s.deals, 2)}` : '');
  const w = String(s.deals).length;
  const count = (n: number) => String(n).padStart(w);
  lines.push(`${s.game}${overridesText(s)}: ${s.deals} ${s.deals === 1 ? 'deal' : 'deals'} of ${range(s.start, s.end)}${s.shard ? ` (shard ${s.shard.index}/${s.shard.count} of deals ${s.from}-${s.from + s.runDeals - 1})` : ''}, ${limitsText(s.limits)}`);
  for (const r of s.retriedFrom ?? []) {
    lines.push(`  retried     ${r.retried} undecided deals of ${r.file} (${limitsText(r.limits)}; ${ms(r.retriedMs)} spent on them there), ${r.kept} decided deals kept from it`);
  }
  if (s.missing > 0) lines.push(`  missing     ${s.missing} deals of the range have no result yet`);
  lines.push(`  won         ${count(s.won)}${share(s.won)}`);
  lines.push(`  lost        ${count(s.lost)}${share(s.lost)}`);
  const reasons = Object.entries(s.unknownReasons)
    .filter(([, n]) => n > 0)
    .map(([r, n]) => `${r} ${n}`);
  lines.push(`  unknown     ${count(s.unknown)}${share(s.unknown)}${reasons.length ? `  (limit hit: ${reasons.join(', ')})` : ''}`);
  if (s.errors > 0) lines.push(`  errors      ${count(s.errors)}  (solving threw: a bug; deals ${s.errorDeals.slice(0, 5).map((e) => e.deal).join(', ')}${s.errors > 5 ? ', ...' : ''})`);
  const undecided = s.unknown + s.errors;
  if (undecided === 0) {
    lines.push(`  win rate    ${pct(s.winRate, s.interval)}`);
  } else {
    lines.push(`  win rate    ${pct(s.winRate, s.interval)}  (${pct(s.winRateRange[0], s.interval)} with the ${undecided} undecided deals lost, ${pct(s.winRateRange[1], s.interval)} with them won)`);
  }
  lines.push(`  95% interval ${pct(s.interval[0], s.interval)} - ${pct(s.interval[1], s.interval)}  (Wilson${undecided > 0 ? ', undecided deals lost for the low end and won for the high end' : ''})`);
  const speed: string[] = [];
  if (run && run.solved > 0) {
    speed.push(`${run.dealsPerSecond >= 100 ? Math.round(run.dealsPerSecond) : run.dealsPerSecond.toFixed(1)} deals/s`);
    speed.push(`${run.solved} solved in ${formatDuration(run.elapsedMs / 1000)} on ${run.workers <= 1 ? 'the main thread' : `${run.workers} workers`}`);
  }
  if (s.deals > 0) speed.push(`per deal: mean ${ms(s.meanMs)}, median ${ms(s.p50Ms)}, p90 ${ms(s.p90Ms)}, max ${ms(s.maxMs)}; CPU ${formatDuration(s.cpuMs / 1000)}`);
  if (speed.length) lines.push(`  speed       ${speed.join('; ')}`);
  const slow = s.slowest.slice(0, 5);
  if (slow.length > 0) {
    lines.push(`  slowest     ${slow.map((d) => `${d.deal} ${d.verdict}${d.reason ? ` (${d.reason})` : ''} ${ms(d.ms)}`).join(', ')}`);
  }
  return lines;
}

/** A path as a shell word: quoted when it holds anything but letters, digits and `_ . / + -`. */
function shellWord(text: string): string {
  return /^[\w./+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command that solves a finished run's undecided deals again at higher limits (`winrate
 * --retry`): ten times each limit that stopped some of them (twice the memory), into a new file
 * beside the run's. Undefined when there is nothing to retry or no file to retry from.
 */
export function retryHint(result: WinRateResult): string | undefined {
  if (result.file === undefined || !result.complete || result.unknown === 0) return undefined;
  const { limits, unknownReasons: why } = result;
  const raise: string[] = [];
  if (why.time > 0 && limits.timeLimitMs !== null) raise.push(`--time-limit ${Number(((limits.timeLimitMs * 10) / 1000).toPrecision(6))}`);
  if (why.nodes > 0 && limits.nodeLimit !== null) raise.push(`--node-limit ${limits.nodeLimit * 10}`);
  if (why.memory > 0 && limits.memoryMiB !== null) raise.push(`--memory ${limits.memoryMiB * 2}`);
  if (raise.length === 0) return undefined;
  const out = `${result.file.replace(/\.msgpack$/, '')}-retry.msgpack`;
  return `the ${result.unknown} undecided deal${result.unknown === 1 ? '' : 's'} at higher limits: patience winrate --retry ${shellWord(result.file)} ${raise.join(' ')} --out ${shellWord(out)}`;
}
