import { fail, shown } from '../errors';
import { type Card, orderedDeck, RANKS_PER_SUIT_MAX } from './card';

/**
 * Deal number -> deck order. This mapping is part of the public contract: deal N gives the same deck
 * forever, on every platform (pinned by golden tests). See docs/formats.md.
 *
 * PRNG: SplitMix64 seeded with the deal number N (0 <= N < 2^53). Each draw is the high 32 bits
 * of the next output. Shuffle: Fisher-Yates from the ordered deck (clubs A..K, diamonds, hearts,
 * spades), for i = n-1 down to 1 swapping i with j uniform in [0, i], where j is found by rejection
 * sampling so that there is no modulo bias.
 */
const MASK64 = (1n << 64n) - 1n;

export class SplitMix64 {
  private state: bigint;
  constructor(seed: number) {
    if (!Number.isSafeInteger(seed)) fail(`bad seed ${shown(seed)}: expected a whole number`);
    this.state = BigInt(seed) & MASK64;
  }
  next64(): bigint {
    this.state = (this.state + 0x9e3779b97f4a7c15n) & MASK64;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
    return z ^ (z >> 31n);
  }
  next32(): number {
    return Number(this.next64() >> 32n);
  }
  /** Uniform integer in [0, n), n <= 2^32, unbiased by rejection. */
  below(n: number): number {
    // Out of range (0, NaN, past 2^32) no draw is ever accepted: refused rather than looping forever.
    if (!Number.isInteger(n) || n < 1 || n > 2 ** 32) fail(`bad bound ${shown(n)}: expected a whole number from 1 to 2^32`);
    const limit = 2 ** 32 - (2 ** 32 % n);
    for (;;) {
      const x = this.next32();
      if (x < limit) return x % n;
    }
  }
}

export const MAX_DEAL_NUMBER = Number.MAX_SAFE_INTEGER;

export function checkDealNumber(seed: number): void {
  if (!Number.isSafeInteger(seed) || seed < 0) fail(`bad deal number ${shown(seed)}: expected a whole number from 0 to 2^53-1`);
}

export function shuffledDeck(seed: number, ranks = RANKS_PER_SUIT_MAX): Card[] {
  checkDealNumber(seed);
  const deck = orderedDeck(ranks); // checks `ranks`
  const rng = new SplitMix64(seed);
  for (let i = deck.length - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    const t = deck[i]!;
    deck[i] = deck[j]!;
    deck[j] = t;
  }
  return deck;
}
