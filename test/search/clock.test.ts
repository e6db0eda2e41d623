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
    const clock = new SearchClock(10_000, time.now);
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
    const clock = new SearchClock(10_000, time.now);
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
    const clock = new SearchClock(5_000, time.now);
    time.advance(SUSPENDED_MS);
    expect(clock.expired()).toBe(false);
    time.advance(SUSPENDED_MS);
    expect(clock.expired()).toBe(false);
    time.advance(SUSPENDED_MS);
    expect(clock.expired()).toBe(true);
    expect(clock.elapsedMs()).toBe(3 * SUSPENDED_MS);
  });

  it('never expires without a limit', () => {
    const time = fakeTime();
    const clock = new SearchClock(Infinity, time.now);
    time.advance(1e12);
    expect(clock.expired()).toBe(false);
  });
});
