import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wilsonInterval, winRateInterval } from '../../src/analyze/wilson';
import { expectError } from '../helpers';

describe('wilsonInterval', () => {
  // Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I, method 3
  // (the score interval without continuity correction), to 4 decimals.
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('%i of %i gives Newcombe\'s [%f, %f]', (x, n, low, high) => {
    const [lo, hi] = wilsonInterval(x, n);
    expect(lo).toBeCloseTo(low, 4);
    expect(hi).toBeCloseTo(high, 4);
  });

  it('matches R binom.wilson for 5 of 10 and the all-or-nothing ends', () => {
    expect(wilsonInterval(5, 10)[0]).toBeCloseTo(0.2365931, 6);
    expect(wilsonInterval(5, 10)[1]).toBeCloseTo(0.7634069, 6);
    expect(wilsonInterval(0, 10)).toEqual([0, expect.closeTo(0.2775328, 6)]);
    expect(wilsonInterval(10, 10)).toEqual([expect.closeTo(0.7224672, 6), 1]);
  });

  it('is [0, 1] with no trials and refuses impossible counts', () => {
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
    expectError(() => wilsonInterval(3, 2), 'wilsonInterval: bad successes 3: expected a whole number from 0 to trials (2)');
    expectError(() => wilsonInterval(-1, 2), 'wilsonInterval: bad successes -1');
  });

  it('refuses counts that are not whole, finite numbers and a z that is not above 0, naming the argument', () => {
    expectError(() => wilsonInterval(5, 3), 'bad successes 5');
    expectError(() => wilsonInterval(NaN, 3), 'bad successes NaN');
    expectError(() => wilsonInterval(1.5, 3), 'bad successes 1.5');
    expectError(() => wilsonInterval(1, Infinity), 'wilsonInterval: bad trials Infinity: expected a whole number, 0 or more');
    expectError(() => wilsonInterval(Infinity, Infinity), 'bad trials Infinity');
    expectError(() => wilsonInterval(1, 2.5), 'bad trials 2.5');
    expectError(() => wilsonInterval('1' as unknown as number, '3' as unknown as number), 'bad trials "3"');
    expectError(() => wilsonInterval(1, 3, -2), 'wilsonInterval: bad z -2: expected a normal quantile above 0');
    expectError(() => wilsonInterval(1, 3, 0), 'bad z 0');
    expectError(() => wilsonInterval(1, 3, NaN), 'bad z NaN');
    expectError(() => wilsonInterval(1, 3, Infinity), 'bad z Infinity');
    // A z given as a parameter still works.
    const [lo, hi] = wilsonInterval(1, 3, 1);
    expect(lo).toBeLessThan(hi);
  });

  it('holds the observed rate, stays in [0, 1], and narrows as trials grow', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e7 }), fc.double({ min: 0, max: 1, noNaN: true }), (n, q) => {
        const x = Math.floor(q * n);
        const [lo, hi] = wilsonInterval(x, n);
        expect(lo).toBeGreaterThanOrEqual(0);
        expect(hi).toBeLessThanOrEqual(1);
        expect(lo).toBeLessThanOrEqual(x / n + 1e-12);
        expect(hi).toBeGreaterThanOrEqual(x / n - 1e-12);
        const [lo4, hi4] = wilsonInterval(4 * x, 4 * n);
        expect(hi4 - lo4).toBeLessThan(hi - lo + 1e-12);
      }),
      { seed: 4, numRuns: 300 },
    );
  });
});

describe('winRateInterval (undecided deals counted as lost, and as won)', () => {
  it('is the Wilson low end with unknowns lost and the high end with them won', () => {
    expect(winRateInterval(700, 50, 1000)).toEqual([wilsonInterval(700, 1000)[0], wilsonInterval(750, 1000)[1]]);
    expect(winRateInterval(700, 0, 1000)).toEqual(wilsonInterval(700, 1000));
  });

  it('refuses bad counts and z in one line naming the argument', () => {
    expectError(() => winRateInterval(5, 5, 6), 'winRateInterval: won (5) + undecided (5) is more than trials (6)');
    expectError(() => winRateInterval(1, -1, 6), 'winRateInterval: bad undecided -1: expected a whole number, 0 or more');
    expectError(() => winRateInterval(NaN, 0, 6), 'winRateInterval: bad won NaN');
    expectError(() => winRateInterval(1, 0.5, 6), 'bad undecided 0.5');
    expectError(() => winRateInterval(1, 0, -6), 'winRateInterval: bad trials -6');
    expectError(() => winRateInterval(1, 0, Infinity), 'bad trials Infinity');
    expectError(() => winRateInterval(1, 0, 6, -2), 'winRateInterval: bad z -2');
    expect(winRateInterval(0, 0, 0)).toEqual([0, 1]);
  });

  it('spans the interval of every way the unknown deals could turn out', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100000 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (n, a, b, c) => {
        const won = Math.floor(a * n);
        const unknown = Math.floor(b * (n - won));
        const turnedWon = Math.floor(c * unknown);
        const [lo, hi] = winRateInterval(won, unknown, n);
        const [l, h] = wilsonInterval(won + turnedWon, n);
        expect(lo).toBeLessThanOrEqual(l);
        expect(hi).toBeGreaterThanOrEqual(h);
      }),
      { seed: 7, numRuns: 300 },
    );
  });
});
