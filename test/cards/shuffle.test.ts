import { describe, expect, it } from 'vitest';
import { type Card, formatCards, orderedDeck } from '../../src/cards/card';
import { MAX_DEAL_NUMBER, shuffledDeck, SplitMix64 } from '../../src/cards/shuffle';
import { expectError } from '../helpers';

// The deal-number contract: these decks must never change (docs/formats.md).
const GOLDEN: Record<string, string> = {
  0: '3S AH 3C KH 8C 5D 9C 7C 6D 5H JH KC AC 2D 2S 2C TD AS 5S JC JS 9S 4H 7D AD QD 7H 8H QH KD TS QC TC KS 6S 4D 6C 3H 9D 3D 4C 8S QS 5C 6H 8D 2H 4S JD 9H TH 7S',
  1: 'KS QH TD 2S AS JC 8S KD 7D 7H 2H 2C 3D KH AH 4H 8H AC 4D 6H KC 6S 5S 4S 6C JD 8C TC 9S 5C TS 9C 2D TH JS 6D 5D 3H 3C 9H 3S QS 9D 7S QC 5H 7C QD 4C 8D AD JH',
  4294967296: 'KS 9D 8H 5S 2S TH 4S KC 2H 4C 6D 4D 5H AD 6H JD 7D TC 7H QS 4H 8C 9S 3S KH 2C 6C AH JH QC 3D 9C 3H 5C 5D 7C QH TS 2D AC JS TD JC QD AS 8D 7S 6S 3C KD 9H 8S',
};

describe('SplitMix64', () => {
  it('gives the reference outputs of SplitMix64 for seed 0', () => {
    // First outputs of the published splitmix64.c with state 0.
    const rng = new SplitMix64(0);
    expect(rng.next64()).toBe(0xe220a8397b1dcdafn);
    expect(rng.next64()).toBe(0x6e789e6aa1b965f4n);
    expect(rng.next64()).toBe(0x06c45d188009454fn);
  });

  it('draws 32-bit numbers as the high half of each output', () => {
    expect(new SplitMix64(0).next32()).toBe(0xe220a839);
  });

  it('draws below n uniformly in range', () => {
    const rng = new SplitMix64(7);
    const seen = new Set<number>();
    for (let i = 0; i < 200; i++) {
      const x = rng.below(5);
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(5);
      seen.add(x);
    }
    expect(seen.size).toBe(5);
  });
});

describe('deal number -> deck order', () => {
  it.each(Object.entries(GOLDEN))('deal %s is pinned', (seed, deck) => {
    expect(formatCards(shuffledDeck(Number(seed)))).toBe(deck);
  });

  it('is a permutation of the deck, also for small decks', () => {
    for (const ranks of [1, 3, 13]) {
      const deck = shuffledDeck(12345, ranks);
      expect(deck.slice().sort((a, b) => a - b)).toEqual(orderedDeck(ranks));
    }
  });

  it('accepts the largest deal number and refuses what is outside 0 .. 2^53-1', () => {
    expect(shuffledDeck(MAX_DEAL_NUMBER)).toHaveLength(52);
    expectError(() => shuffledDeck(-1), 'bad deal number -1');
    expectError(() => shuffledDeck(1.5), 'bad deal number 1.5');
    expectError(() => shuffledDeck(2 ** 53), 'bad deal number');
  });
});

/**
 * Pearson's statistic over the 52 x 52 table "card c ended at position i", counted over `deals`
 * shuffles. Each cell is Binomial(deals, 1/52), so a fair shuffle gives about 52*51 = 2652 with a
 * spread of about 80 (measured over Math.random shuffles); a classic bias gives many thousands.
 */
function chiSquare(shuffle: (deal: number) => Card[], deals: number): number {
  const counts = new Float64Array(52 * 52);
  for (let deal = 0; deal < deals; deal++) {
    const deck = shuffle(deal);
    for (let i = 0; i < 52; i++) counts[deck[i]! * 52 + i]!++;
  }
  const expected = deals / 52;
  let x = 0;
  for (const c of counts) x += (c - expected) ** 2 / expected;
  return x;
}

const DEALS = 20_000;
// About five spreads above the mean of a fair shuffle.
const BOUND = 3100;

describe('the shuffle is unbiased', () => {
  it(`puts every card in every position about equally over ${DEALS} deals`, () => {
    const x = chiSquare((deal) => shuffledDeck(deal), DEALS);
    expect(x).toBeGreaterThan(2200);
    expect(x).toBeLessThan(BOUND);
  });

  it('the same bound catches the classic biased shuffle (swap each card with any card)', () => {
    const naive = (deal: number): Card[] => {
      const deck = orderedDeck();
      const rng = new SplitMix64(deal);
      for (let i = 0; i < deck.length; i++) {
        const j = rng.below(deck.length);
        [deck[i], deck[j]] = [deck[j]!, deck[i]!];
      }
      return deck;
    };
    expect(chiSquare(naive, DEALS)).toBeGreaterThan(BOUND);
  });

  it('and an off-by-one Fisher-Yates (j below i, never i itself)', () => {
    const sattolo = (deal: number): Card[] => {
      const deck = orderedDeck();
      const rng = new SplitMix64(deal);
      for (let i = deck.length - 1; i > 0; i--) {
        const j = rng.below(i);
        [deck[i], deck[j]] = [deck[j]!, deck[i]!];
      }
      return deck;
    };
    expect(chiSquare(sattolo, DEALS)).toBeGreaterThan(BOUND);
  });
});
