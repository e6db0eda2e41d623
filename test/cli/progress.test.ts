import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createProgress, createSearchStatus, formatDuration } from '../../src/cli/progress';

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  return { stream: { isTTY, columns: 200, write: (t: string) => writes.push(t) }, writes };
}

describe('createProgress', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
  });
  afterEach(() => vi.useRealTimers());

  it('redraws one bar in place on a terminal, with rate, ETA and the caller suffix', () => {
    const { stream, writes } = fakeStream(true);
    const p = createProgress({ total: 1000, label: 'canfield', stream });
    p.update(0);
    vi.setSystemTime(10_000);
    p.update(250, 'won 70.0% [66.1, 73.6]');
    expect(writes).toHaveLength(2);
    const bar = writes[1]!;
    expect(bar.startsWith('\r')).toBe(true);
    expect(bar).not.toContain('\n');
    expect(bar).toContain('canfield [######------------------] 250/1000  25.0%  25.0/s  ETA 30s  won 70.0% [66.1, 73.6]');
    vi.setSystemTime(10_050);
    p.update(260); // too soon after the last draw: skipped
    expect(writes).toHaveLength(2);
    vi.setSystemTime(20_000);
    p.update(1000);
    p.finish();
    expect(writes.at(-1)).toMatch(/1000\/1000 {2}100\.0% {2}50\.0\/s {2}in 20s {2}won 70\.0% \[66\.1, 73\.6\]\x1b\[K\n$/);
  });

  it('prints nothing when not on a terminal (piped), unless asked for lines', () => {
    const { stream, writes } = fakeStream(false);
    const p = createProgress({ total: 100, stream, intervalMs: 1000 });
    for (let t = 0; t <= 12_000; t += 1000) {
      vi.setSystemTime(t);
      p.update(t / 200);
    }
    p.finish();
    expect(writes).toEqual([]);
  });

  it('with lines, prints a plain line every interval when not on a terminal', () => {
    const { stream, writes } = fakeStream(false);
    const p = createProgress({ total: 100, stream, intervalMs: 5000, lines: true });
    for (let t = 0; t <= 12_000; t += 1000) {
      vi.setSystemTime(t);
      p.update(t / 200);
    }
    p.finish();
    expect(writes).toEqual(['0/100  0.0%  ETA ?\n', '25/100  25.0%  5.00/s  ETA 15s\n', '50/100  50.0%  5.00/s  ETA 10s\n', '60/100  60.0%  5.00/s  in 12s\n']);
  });

  it('counts only work done since it started towards the rate (a resumed run)', () => {
    const { stream, writes } = fakeStream(false);
    const p = createProgress({ total: 1000, stream, intervalMs: 1000, lines: true });
    p.update(900);
    vi.setSystemTime(10_000);
    p.update(950);
    expect(writes[1]).toBe('950/1000  95.0%  5.00/s  ETA 10s\n');
  });

  it('prints nothing when quiet', () => {
    for (const tty of [true, false]) {
      const { stream, writes } = fakeStream(tty);
      const p = createProgress({ total: 10, quiet: true, lines: true, stream });
      p.update(5, 'x');
      p.finish();
      expect(writes).toEqual([]);
    }
  });

  it('finishes once', () => {
    const { stream, writes } = fakeStream(false);
    const p = createProgress({ total: 2, stream, lines: true });
    p.update(2);
    p.finish();
    p.finish();
    p.update(2);
    expect(writes).toHaveLength(2);
  });
});

describe('createSearchStatus (solve)', () => {
  it('redraws one status line in place on a terminal, and erases it at the end', () => {
    const { stream, writes } = fakeStream(true);
    const status = createSearchStatus({ limitMs: 60_000, stream });
    status.update({ nodes: 1_234_567, elapsedMs: 1_000 });
    status.update({ nodes: 2_500_000, elapsedMs: 75_000 });
    status.finish();
    expect(writes).toEqual(['\rsearching: 1.2 M nodes, 1s of 1m00s\x1b[K', '\rsearching: 2.5 M nodes, 1m15s of 1m00s\x1b[K', '\r\x1b[K']);
  });

  it('shows no limit when there is none, and erases nothing it never drew', () => {
    const { stream, writes } = fakeStream(true);
    const quick = createSearchStatus({ stream });
    quick.finish();
    expect(writes).toEqual([]);
    const slow = createSearchStatus({ stream });
    slow.update({ nodes: 40_960, elapsedMs: 2_000 });
    expect(writes).toEqual(['\rsearching: 41 k nodes, 2s\x1b[K']);
  });

  it('prints nothing when not on a terminal', () => {
    const { stream, writes } = fakeStream(false);
    const status = createSearchStatus({ limitMs: 10_000, stream });
    status.update({ nodes: 5_000_000, elapsedMs: 3_000 });
    status.finish();
    expect(writes).toEqual([]);
  });
});

describe('formatDuration', () => {
  it('reads as seconds, minutes or hours', () => {
    expect([formatDuration(4.4), formatDuration(75), formatDuration(4000), formatDuration(Infinity)]).toEqual(['4s', '1m15s', '1h06m', '?']);
  });
});
