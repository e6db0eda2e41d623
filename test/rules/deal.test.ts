import { describe, expect, it } from 'vitest';
import { formatCards, parseDeck } from '../../src/cards/card';
import { shuffledDeck } from '../../src/cards/shuffle';
import { dealFromDeckText, dealFromSeed } from '../../src/rules/deal';
import { dealFromDeck, validatePosition } from '../../src/rules/position';
import { resolveRules } from '../../src/rules/rules';
import { expectError } from '../helpers';

// Deal 1's deck order (pinned in test/cards/shuffle.test.ts), card 0 first.
const DECK =
  'KS QH TD 2S AS JC 8S KD 7D 7H 2H 2C 3D KH AH 4H 8H AC 4D 6H KC 6S 5S 4S 6C JD 8C TC 9S 5C TS 9C 2D TH JS 6D 5D 3H 3C 9H 3S QS 9D 7S QC 5H 7C QD 4C 8D AD JH';
const words = DECK.split(' ');
const text = (position: number[]) => formatCards(position);
/** Stock printed in dealing order: the last array element is dealt first. */
const dealingOrder = (stock: number[]) => formatCards(stock.slice().reverse());

describe('canister layout: deck card i goes to pile i mod 8', () => {
  for (const game of ['canister', 'american-canister', 'british-canister']) {
    it(game, () => {
      const p = dealFromDeckText(resolveRules(game), DECK);
      expect(p.tableau).toHaveLength(8);
      for (let pile = 0; pile < 8; pile++) {
        expect(text(p.tableau[pile]!)).toBe(words.filter((_, i) => i % 8 === pile).join(' '));
      }
      expect(p.tableau.map((t) => t.length)).toEqual([7, 7, 7, 7, 6, 6, 6, 6]);
      expect(text(p.tableau[0]!)).toBe('KS 7D 8H 6C 2D 3S 4C');
      expect(text(p.tableau[7]!)).toBe('KD 4H 4S 9C 9H QD');
      expect([p.reserve, p.stock, p.waste]).toEqual([[], [], []]);
      expect(p.foundations).toEqual([0, 0, 0, 0]);
      expect(p.baseRank).toBe(0);
    });
  }
});

describe('canister layout with --bases-out: the base cards start the foundations, the other 48 go round the piles', () => {
  for (const [game, base, rank] of [['canister', 'A', 0], ['american-canister', '2', 1], ['british-canister', 'K', 12]] as const) {
    it(`${game}, base ${base}`, () => {
      const p = dealFromDeckText(resolveRules(game, { basesOut: true, base }), DECK);
      const rest = words.filter((w) => w[0] !== base);
      expect(rest).toHaveLength(48);
      for (let pile = 0; pile < 8; pile++) {
        expect(text(p.tableau[pile]!)).toBe(rest.filter((_, i) => i % 8 === pile).join(' '));
      }
      expect(p.foundations).toEqual([1, 1, 1, 1]);
      expect(p.baseRank).toBe(rank);
      // The layout is a position the rules accept (before the fix, the foundations were left empty).
      expect(() => validatePosition(p)).not.toThrow();
    });
  }
});

describe('storehouse layout', () => {
  const p = dealFromDeckText(resolveRules('storehouse'), DECK);

  it('takes the four 2s out to start the foundations, base 2', () => {
    expect(p.foundations).toEqual([1, 1, 1, 1]);
    expect(p.baseRank).toBe(1);
  });

  it('deals the next 13 cards (2s skipped) to the reserve, the 13th on top', () => {
    expect(text(p.reserve)).toBe('KS QH TD AS JC 8S KD 7D 7H 3D KH AH 4H');
  });

  it('deals the next 4 one each to tableau piles 1-4', () => {
    expect(p.tableau.map(text)).toEqual(['8H', 'AC', '4D', '6H']);
  });

  it('leaves 31 cards in the stock, the first of them dealt first', () => {
    expect(p.stock).toHaveLength(31);
    const rest = words.filter((w) => w[0] !== '2').slice(17);
    expect(dealingOrder(p.stock)).toBe(rest.join(' '));
    expect(text([p.stock[p.stock.length - 1]!])).toBe('KC');
    expect(p.waste).toEqual([]);
  });
});

describe('canfield layout', () => {
  for (const game of ['canfield', 'canfield-relaxed', 'canfield-sequences']) {
    it(`${game}: reserve 0-12, card 13 starts a foundation and sets the base, 14-17 to the tableau, 18-51 to the stock`, () => {
      const p = dealFromDeckText(resolveRules(game), DECK);
      expect(text(p.reserve)).toBe(words.slice(0, 13).join(' '));
      expect(text([p.reserve[12]!])).toBe('3D');
      // Card 13 is KH: the hearts foundation holds it and the base rank is K.
      expect(p.baseRank).toBe(12);
      expect(p.foundations).toEqual([0, 0, 1, 0]);
      expect(p.tableau.map(text)).toEqual(['AH', '4H', '8H', 'AC']);
      expect(dealingOrder(p.stock)).toBe(words.slice(18).join(' '));
      // Listed bottom to top, the stock runs from card 51 down to card 18.
      expect(text([p.stock[0]!])).toBe('JH');
      expect(text([p.stock[33]!])).toBe('4D');
      expect(p.redealsUsed).toBe(0);
    });
  }
});

describe('deal numbers and deck text are interchangeable', () => {
  it.each(['canister', 'storehouse', 'canfield'])('%s: deal 1 is the deal of its deck text', (game) => {
    const rules = resolveRules(game);
    expect(dealFromSeed(rules, 1)).toEqual(dealFromDeckText(rules, DECK));
    expect(dealFromDeck(rules, shuffledDeck(1))).toEqual(dealFromSeed(rules, 1));
  });

  it('every preset deals a valid position from many deals', () => {
    for (const game of ['canister', 'american-canister', 'british-canister', 'storehouse', 'canfield', 'canfield-relaxed', 'canfield-sequences']) {
      for (let seed = 0; seed < 50; seed++) validatePosition(dealFromSeed(resolveRules(game), seed));
    }
  });

  it('small decks deal with their own layout sizes', () => {
    const rules = resolveRules('canfield', { ranks: 3, reserve: 2, piles: 2 });
    const p = dealFromDeckText(rules, 'AC 2C 3C AD 2D 3D AH 2H 3H AS 2S 3S');
    expect(text(p.reserve)).toBe('AC 2C');
    expect(p.baseRank).toBe(2);
    expect(p.foundations).toEqual([1, 0, 0, 0]);
    expect(p.tableau.map(text)).toEqual(['AD', '2D']);
    expect(dealingOrder(p.stock)).toBe('3D AH 2H 3H AS 2S 3S');
  });

  it('refuses a deck of the wrong size or with a foreign card', () => {
    expectError(() => dealFromDeck(resolveRules('canfield'), parseDeck('AC 2C AD 2D AH 2H AS 2S', 2)), 'the deck has 8 cards; canfield with 13 ranks needs 52');
    expectError(() => dealFromDeckText(resolveRules('canister', { ranks: 2 }), DECK), 'card KS is not in a deck of 2 ranks per suit');
  });
});
