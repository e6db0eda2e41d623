import type { SolveProgress } from '../index';

/**
 * Progress of long work (deals solved out of a total) on stderr, so that stdout stays clean for
 * results and --json. On a terminal: one bar redrawn in place, at most 10 times a second. Not on a
 * terminal (piped, a log file): nothing, unless `lines` asks for a plain line every `intervalMs` (a
 * cluster job's log). `quiet`: nothing anywhere.
 */
export interface ProgressOptions {
  /** Units of work in all (deals). */
  total: number;
  /** Print nothing at all. */
  quiet?: boolean;
  /** When the stream is not a terminal, print a plain line every `intervalMs` instead of nothing. */
  lines?: boolean;
  /** Shown before the figures, e.g. "canfield". */
  label?: string;
  /** Where to write; default process.stderr. Its isTTY decides bar, or plain lines (`lines`) or nothing. */
  stream?: ProgressStream;
  /** Milliseconds between plain lines (`lines`, not a terminal); default 5000. */
  intervalMs?: number;
}

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface Progress {
  /** `done` units are finished (counting any done before the run started); `suffix` is shown after the figures. */
  update(done: number, suffix?: string): void;
  /** Prints the final state and ends the line; later calls do nothing. */
  finish(): void;
}

const REDRAW_MS = 100;
const BAR_WIDTH = 24;

/** 75 s -> "1m15s", 4000 s -> "1h06m". */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

function formatRate(perSecond: number): string {
  if (perSecond >= 100) return `${Math.round(perSecond)}/s`;
  if (perSecond >= 10) return `${perSecond.toFixed(1)}/s`;
  return `${perSecond.toFixed(2)}/s`;
}

export function createProgress(options: ProgressOptions): Progress {
  const stream = options.stream ?? process.stderr;
  const tty = stream.isTTY === true;
  if (options.quiet || (!tty && options.lines !== true)) return { update() {}, finish() {} };
  const intervalMs = options.intervalMs ?? 5000;
  const total = Math.max(0, options.total);
  const start = Date.now();
  // Work done before the first update (a resumed run) does not count towards the rate.
  let firstDone = -1;
  let done = 0;
  let suffix = '';
  let lastDraw = -Infinity;
  let finished = false;

  const line = (final: boolean): string => {
    const elapsedS = (Date.now() - start) / 1000;
    const rate = elapsedS > 0 ? (done - Math.max(firstDone, 0)) / elapsedS : 0;
    const pct = total > 0 ? (100 * done) / total : 100;
    const parts = [`${done}/${total}`, `${pct.toFixed(1)}%`];
    if (rate > 0) parts.push(formatRate(rate));
    if (final) parts.push(`in ${formatDuration(elapsedS)}`);
    else parts.push(rate > 0 ? `ETA ${formatDuration((total - done) / rate)}` : 'ETA ?');
    if (suffix) parts.push(suffix);
    const label = options.label ? `${options.label} ` : '';
    if (!tty) return label + parts.join('  ');
    const filled = total > 0 ? Math.min(BAR_WIDTH, Math.floor((BAR_WIDTH * done) / total)) : BAR_WIDTH;
    const text = `${label}[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${parts.join('  ')}`;
    const columns = stream.columns ?? 80;
    return text.length >= columns ? text.slice(0, columns - 1) : text;
  };

  const draw = (final: boolean) => {
    lastDraw = Date.now();
    // \x1b[K clears what a longer previous bar left behind.
    if (tty) stream.write(`\r${line(final)}\x1b[K${final ? '\n' : ''}`);
    else stream.write(line(final) + '\n');
  };

  return {
    update(n, text) {
      if (finished) return;
      if (firstDone < 0) firstDone = n;
      done = n;
      if (text !== undefined) suffix = text;
      if (Date.now() - lastDraw >= (tty ? REDRAW_MS : intervalMs)) draw(false);
    },
    finish() {
      if (finished) return;
      finished = true;
      draw(true);
    },
  };
}

/**
 * The progress of one search (`solve`), whose end nobody knows: on a terminal, one status line
 * redrawn in place as the search reports (`SolveOptions.onProgress`, once a second) and erased at the
 * end, so that the answer prints as if it had never been there; elsewhere nothing.
 */
export function createSearchStatus(options: { limitMs?: number; stream?: ProgressStream } = {}): {
  update(progress: SolveProgress): void;
  finish(): void;
} {
  const stream = options.stream ?? process.stderr;
  if (stream.isTTY !== true) return { update() {}, finish() {} };
  let shown = false;
  return {
    update({ nodes, elapsedMs }) {
      const limit = options.limitMs !== undefined && Number.isFinite(options.limitMs) ? ` of ${formatDuration(options.limitMs / 1000)}` : '';
      const count = nodes >= 1e6 ? `${(nodes / 1e6).toFixed(1)} M` : `${Math.round(nodes / 1e3)} k`;
      stream.write(`\rsearching: ${count} nodes, ${formatDuration(elapsedMs / 1000)}${limit}\x1b[K`);
      shown = true;
    },
    finish() {
      if (shown) stream.write('\r\x1b[K');
      shown = false;
    },
  };
}
