import { describe, expect, it } from 'vitest';
import { SearchClock, SUSPENDED_MS } from '../../src/search/clock';

/** A clock whose time the test sets. */
function fakeTime(): { now: () => number; advance: (ms: number) => void } {
  let t = 1_000;
  return { now: () => t, advance: (ms) => (t += ms) };
}

describe('the search clock (time limits leave out a stopped process)', () => {
  it('expires once the time searched passes the limit, checked in small steps', () => {
    const time = fakeTime();
    const clock = new SearchClock(10_000, () => 0, time.now);
    let checks = 0;
    while (!clock.expired()) {
      time.advance(1);
      checks++;
    }
    expect(checks).toBe(10_001);
    expect(clock.elapsedMs()).toBe(10_001);
  });

  it('leaves out a gap between two checks longer than SUSPENDED_MS, and counts it from there on', () => {
    const time = fakeTime();
    const clock = new SearchClock(10_000, () => 0, time.now);
    time.advance(4_000);
    expect(clock.expired()).toBe(false); // a gap from the start is a stop too: 0 ms searched
    time.advance(3_000);
    expect(clock.elapsedMs()).toBe(0);
    for (let i = 0; i < 9_000; i++) {
      time.advance(1);
      clock.expired();
    }
    // A stop of an hour: still 9 s searched, not expired.
    time.advance(3_600_000);
    expect(clock.expired()).toBe(false);
    expect(clock.elapsedMs()).toBe(9_000);
    for (let i = 0; i < 1_000; i++) {
      time.advance(1);
      clock.expired();
    }
    time.advance(1);
    expect(clock.expired()).toBe(true);
    expect(clock.elapsedMs()).toBe(10_001);
  });

  it('counts every gap up to SUSPENDED_MS (a slow step is search time, not a stop)', () => {
    const time = fakeTime();
    const clock = new SearchClock(5_000, () => 0, time.now);
    time.advance(SUSPENDED_MS);
    expect(clock.expired()).toBe(false);
    time.advance(SUSPENDED_MS);
    expect(clock.expired()).toBe(false);
    time.advance(SUSPENDED_MS);
    expect(clock.expired()).toBe(true);
    expect(clock.elapsedMs()).toBe(3 * SUSPENDED_MS);
  });

  it("counts a long gap that the table's own long steps explain (doubling its slots), and leaves out the rest", () => {
    const time = fakeTime();
    const busy = { ms: 0 };
    const clock = new SearchClock(10_000, () => busy.ms, time.now);
    time.advance(5_000);
    busy.ms += 4_990; // a rehash of 5 s between two checks: search time
    expect(clock.elapsedMs()).toBe(5_000);
    time.advance(8_000);
    busy.ms += 1_000; // a 1 s rehash inside a 7 s stop: only the stop is left out
    expect(clock.elapsedMs()).toBe(6_000);
    for (let i = 0; i < 4_000; i++) {
      time.advance(1);
      expect(clock.expired()).toBe(false);
    }
    time.advance(1);
    expect(clock.expired()).toBe(true);
  });

  it('never expires without a limit', () => {
    const time = fakeTime();
    const clock = new SearchClock(Infinity, () => 0, time.now);
    time.advance(1e12);
    expect(clock.expired()).toBe(false);
  });
});
