/**
 * Confidence intervals for a win rate. A deal either is winnable or is not, so a run over n random
 * deals is a binomial sample; the Wilson score interval behaves well near 0 and 1 and for small n,
 * where the normal approximation (p ± z·sqrt(p(1-p)/n)) gives bounds outside [0, 1].
 */

import { fail } from '../errors';
import { isWhole, shown } from './check';

/** The two-sided 95% normal quantile, Φ⁻¹(0.975). */
export const Z_95 = 1.959963984540054;

/**
 * The Wilson score interval for `successes` out of `trials`, as fractions [low, high].
 * With no trials nothing is known, so the interval is [0, 1].
 */
export function wilsonInterval(successes: number, trials: number, z = Z_95): [number, number] {
  if (!isWhole(trials)) fail(`wilsonInterval: bad trials ${shown(trials)}: expected a whole number, 0 or more`);
  if (!isWhole(successes) || successes > trials) fail(`wilsonInterval: bad successes ${shown(successes)}: expected a whole number from 0 to trials (${trials})`);
  checkZ(z, 'wilsonInterval');
  return wilson(successes, trials, z);
}

function checkZ(z: number, what: string): void {
  if (typeof z !== 'number' || !(z > 0) || !Number.isFinite(z)) fail(`${what}: bad z ${shown(z)}: expected a normal quantile above 0 (Z_95 = 1.96 for 95%)`);
}

/** The interval for checked arguments. */
function wilson(successes: number, trials: number, z: number): [number, number] {
  if (trials === 0) return [0, 1];
  const p = successes / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const center = (p + z2 / (2 * trials)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  // Clamp the rounding noise at the ends (successes 0 or trials gives exactly 0 or 1 in exact arithmetic).
  const low = successes === 0 ? 0 : Math.max(0, center - half);
  const high = successes === trials ? 1 : Math.min(1, center + half);
  return [low, high];
}

/**
 * The interval for a run where some deals stayed undecided (unknown or error): the Wilson interval
 * with every undecided deal counted as lost gives the low end, with every one counted as won the
 * high end. The true rate of the sampled population lies in this range at 95% confidence whatever
 * the undecided deals turn out to be, which is how the published figures (Blake & Gent) are stated.
 */
export function winRateInterval(won: number, undecided: number, trials: number, z = Z_95): [number, number] {
  if (!isWhole(trials)) fail(`winRateInterval: bad trials ${shown(trials)}: expected a whole number, 0 or more`);
  if (!isWhole(won)) fail(`winRateInterval: bad won ${shown(won)}: expected a whole number, 0 or more`);
  if (!isWhole(undecided)) fail(`winRateInterval: bad undecided ${shown(undecided)}: expected a whole number, 0 or more`);
  if (won + undecided > trials) fail(`winRateInterval: won (${won}) + undecided (${undecided}) is more than trials (${trials})`);
  checkZ(z, 'winRateInterval');
  return [wilson(won, trials, z)[0], wilson(won + undecided, trials, z)[1]];
}
