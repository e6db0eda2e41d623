import { describe, expect, it } from 'vitest';
import { dealFromSeed } from '../../src/rules/deal';
import { resolveRules } from '../../src/rules/rules';
import { cpuMs, PROGRESS_EVERY_MS, SearchClock, stepMs, SUSPENDED_MS } from '../../src/search/clock';
import { Solver } from '../../src/search/solver';

/** A search that checks its clock every millisecond for `ms` milliseconds. */
function search(clock: SearchClock, time: { advance: (ms: number) => void }, ms: number): void {
  for (let i = 0; i < ms; i++) {
    time.advance(1);
    clock.check(0);
  }
}

/** A clock whose time the test sets. */
function fakeTime(): { now: () => number; advance: (ms: number) => void } {
  let t = 1_000;
  return { now: () => t, advance: (ms) => (t += ms) };
}

describe('the search clock (time limits leave out a stopped process)', () => {
  it('expires once the time searched passes the limit, checked in small steps', () => {
    const time = fakeTime();
    const clock = new SearchClock(10_000, { now: time.now });
    let checks = 0;
    while (!clock.check(0)) {
      time.advance(1);
      checks++;
    }
    expect(checks).toBe(10_001);
    expect(clock.elapsedMs()).toBe(10_001);
  });

  it('leaves out a gap between two checks longer than SUSPENDED_MS, and counts it from there on', () => {
    const time = fakeTime();
    const clock = new SearchClock(10_000, { now: time.now });
    time.advance(4_000);
    expect(clock.check(0)).toBe(false); // a gap from the start is a stop too: 0 ms searched
    time.advance(3_000);
    expect(clock.elapsedMs()).toBe(0);
    search(clock, time, 9_000);
    // A stop of an hour: still 9 s searched, not expired.
    time.advance(3_600_000);
    expect(clock.check(0)).toBe(false);
    expect(clock.elapsedMs()).toBe(9_000);
    search(clock, time, 1_000);
    time.advance(1);
    expect(clock.check(0)).toBe(true);
    expect(clock.elapsedMs()).toBe(10_001);
  });

  it('counts every gap up to SUSPENDED_MS (a slow step is search time, not a stop)', () => {
    const time = fakeTime();
    const clock = new SearchClock(5_000, { now: time.now });
    time.advance(SUSPENDED_MS);
    expect(clock.check(0)).toBe(false);
    time.advance(SUSPENDED_MS);
    expect(clock.check(0)).toBe(false);
    time.advance(SUSPENDED_MS);
    expect(clock.check(0)).toBe(true);
    expect(clock.elapsedMs()).toBe(3 * SUSPENDED_MS);
  });

  it("counts a long gap that the table's own long steps explain (doubling its slots), and leaves out the rest", () => {
    const time = fakeTime();
    const busy = { ms: 0 };
    const clock = new SearchClock(10_000, { busy, now: time.now });
    time.advance(5_000);
    busy.ms += 4_990; // a rehash of 5 s between two checks: search time
    expect(clock.elapsedMs()).toBe(5_000);
    time.advance(8_000);
    busy.ms += 1_000; // a 1 s rehash inside a 7 s stop: only the stop is left out
    expect(clock.elapsedMs()).toBe(6_000);
    for (let i = 0; i < 4_000; i++) {
      time.advance(1);
      expect(clock.check(0)).toBe(false);
    }
    time.advance(1);
    expect(clock.check(0)).toBe(true);
  });

  it('measures a long step by the CPU time it used, so that a stop inside a table doubling is left out too', () => {
    // A doubling of 1 s of CPU with a 7 s stop inside it: 8 s by the wall clock, 1 s of step.
    expect(stepMs(1_000, 500, 9_000, 1_500)).toBe(1_000);
    // Without a stop, the wall time: the process's CPU time counts other threads too (a pool's workers).
    expect(stepMs(1_000, 500, 5_000, 9_000)).toBe(4_000);
    // Where there is no CPU clock (a browser: cpuMs() is Infinity), the wall time.
    expect(stepMs(1_000, Infinity, 5_000, Infinity)).toBe(4_000);
    // Through the search clock: the stop inside the step is left out, the step's own second is searched.
    const time = fakeTime();
    const busy = { ms: 0 };
    const clock = new SearchClock(10_000, { busy, now: time.now });
    time.advance(8_000);
    busy.ms += stepMs(1_000, 500, 9_000, 1_500);
    expect(clock.elapsedMs()).toBe(1_000);
  });

  it("reads this process's CPU time, which grows as it works", () => {
    // Works until 25 ms of CPU have passed (or 5 s of wall time on a machine too busy to give them),
    // not for a fixed wall time: with the cores shared, 60 ms of wall time may hold little CPU.
    const start = cpuMs();
    const until = performance.now() + 5_000;
    let x = 0;
    while (cpuMs() - start < 25 && performance.now() < until) for (let i = 0; i < 10_000; i++) x += Math.sqrt(x + 1);
    expect(x).toBeGreaterThan(0);
    expect(cpuMs() - start).toBeGreaterThan(20);
  });

  it('reports progress every PROGRESS_EVERY_MS of search, with the nodes it is given', () => {
    const time = fakeTime();
    const seen: [number, number][] = [];
    const clock = new SearchClock(Infinity, { now: time.now, onProgress: (p) => seen.push([p.nodes, p.elapsedMs]) });
    for (let i = 1; i <= 3_500; i++) {
      time.advance(1);
      clock.check(10 * i);
    }
    expect(seen).toEqual([[10 * PROGRESS_EVERY_MS, PROGRESS_EVERY_MS], [20 * PROGRESS_EVERY_MS, 2 * PROGRESS_EVERY_MS], [30 * PROGRESS_EVERY_MS, 3 * PROGRESS_EVERY_MS]]);
  });

  it('never expires without a limit', () => {
    const time = fakeTime();
    const clock = new SearchClock(Infinity, { now: time.now });
    time.advance(1e12);
    expect(clock.check(0)).toBe(false);
  });

  it('gives a solve its progress about once a second (SolveOptions.onProgress)', () => {
    // Hoyle deal 396 is lost after 7.6 M nodes; 3 M take 2 s or more.
    const seen: { nodes: number; elapsedMs: number }[] = [];
    const result = new Solver().solve(dealFromSeed(resolveRules('canfield'), 396), { nodeLimit: 3_000_000, onProgress: (p) => seen.push(p) });
    expect(result.reason).toBe('nodes');
    expect(seen.length).toBeGreaterThanOrEqual(1);
    for (let i = 0; i < seen.length; i++) {
      expect(seen[i]!.elapsedMs).toBeGreaterThanOrEqual((i + 1) * PROGRESS_EVERY_MS);
      expect(seen[i]!.nodes).toBeGreaterThan(i > 0 ? seen[i - 1]!.nodes : 0);
      expect(seen[i]!.nodes).toBeLessThanOrEqual(result.nodes);
    }
    expect(seen.at(-1)!.elapsedMs).toBeLessThanOrEqual(result.elapsedMs);
  });
});
