import { describe, expect, it } from 'vitest';
import {
  cardColour,
  cardRank,
  cardSuit,
  checkDeck,
  formatCard,
  formatCards,
  makeCard,
  orderedDeck,
  parseCard,
  parseDeck,
  parseRank,
  tryParseCard,
} from '../../src/cards/card';
import { expectError } from '../helpers';

describe('card codes', () => {
  it('packs suit * 13 + rank, suits C D H S, ranks A..K', () => {
    expect(parseCard('AC')).toBe(0);
    expect(parseCard('KC')).toBe(12);
    expect(parseCard('AD')).toBe(13);
    expect(parseCard('TH')).toBe(2 * 13 + 9);
    expect(parseCard('KS')).toBe(51);
    expect(cardSuit(parseCard('7H'))).toBe(2);
    expect(cardRank(parseCard('7H'))).toBe(6);
    expect(makeCard(3, 0)).toBe(parseCard('AS'));
  });

  it('accepts TD, 10d and td alike, and as / 1s for the ace', () => {
    expect(parseCard('TD')).toBe(makeCard(1, 9));
    expect(parseCard('10d')).toBe(makeCard(1, 9));
    expect(parseCard('td')).toBe(makeCard(1, 9));
    expect(parseCard('as')).toBe(makeCard(3, 0));
    expect(parseCard(' 1S ')).toBe(makeCard(3, 0));
    expect(parseRank('10')).toBe(9);
    expect(parseRank('q')).toBe(11);
  });

  it('prints every card as rank then suit, T for ten', () => {
    expect(formatCard(parseCard('10d'))).toBe('TD');
    expect(formatCards(orderedDeck().slice(8, 15))).toBe('9C TC JC QC KC AD 2D');
    for (const card of orderedDeck()) expect(parseCard(formatCard(card))).toBe(card);
  });

  it('colours clubs and spades black, diamonds and hearts red', () => {
    expect(['AC', 'AD', 'AH', 'AS'].map((t) => cardColour(parseCard(t)))).toEqual([0, 1, 1, 0]);
  });

  it.each([
    ['', 'bad card ""'],
    ['X', 'bad card "X"'],
    ['1', 'bad card "1"'],
    ['11H', 'bad card "11H"'],
    ['KX', 'bad card "KX"'],
    ['0S', 'bad card "0S"'],
    ['10DD', 'bad card "10DD"'],
  ])('refuses card text %j', (text, message) => {
    expect(tryParseCard(text)).toBe(-1);
    expectError(() => parseCard(text), message);
  });

  it('refuses a bad rank by name', () => {
    expectError(() => parseRank('Z'), 'bad rank "Z"');
  });
});

describe('deck text', () => {
  const full = formatCards(orderedDeck());

  it('reads 52 codes separated by spaces or commas', () => {
    expect(parseDeck(full)).toEqual(orderedDeck());
    expect(parseDeck(full.replace(/ /g, ','))).toEqual(orderedDeck());
  });

  it('reads a small deck of a few ranks per suit', () => {
    expect(parseDeck('AC 2C AD 2D AH 2H AS 2S', 2)).toEqual([0, 1, 13, 14, 26, 27, 39, 40]);
  });

  it('refuses a duplicate card, naming it', () => {
    expectError(() => parseDeck(full.replace('KS', 'QS')), 'duplicate card QS in the deck');
  });

  it('refuses a missing card, naming it', () => {
    expectError(() => parseDeck(full.replace(' KS', '')), 'the deck is missing 1 card(s): KS');
  });

  it('refuses a card outside a small deck', () => {
    expectError(() => parseDeck('AC 3C AD 2D AH 2H AS 2S', 2), 'card 3C is not in a deck of 2 ranks per suit');
    expectError(() => checkDeck([0, 1, 13], 2), 'missing');
  });

  it('refuses a word that is not a card', () => {
    expectError(() => parseDeck(full.replace('KS', 'KZ')), 'bad card "KZ"');
  });
});
