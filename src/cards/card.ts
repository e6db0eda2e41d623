import { fail, shown } from '../errors';

/**
 * A card is a small integer: suit * 13 + rank, rank 0 = Ace ... 12 = King, suits C D H S = 0..3.
 * The stride stays 13 even when a game uses fewer ranks per suit, so a card's code never depends on
 * the rules; small decks just use ranks 0 .. ranks-1 (A, 2, 3, ...).
 */
export type Card = number;

export const SUITS = 'CDHS';
export const RANKS = 'A23456789TJQK';
export const RANKS_PER_SUIT_MAX = 13;

export const cardSuit = (card: Card): number => (card / 13) | 0;
export const cardRank = (card: Card): number => card % 13;
export const makeCard = (suit: number, rank: number): Card => suit * 13 + rank;

/*
 * The same three for the public API (src/index.ts exports these under the plain names): they refuse
 * what is not a card, suit or rank in one line. The unchecked ones above stay for the solver's inner
 * loops, whose cards are always valid.
 */
const checkCard = (card: unknown, what: string): Card => {
  if (!Number.isInteger(card) || (card as number) < 0 || (card as number) >= 52) fail(`${what}: bad card code ${shown(card)}: expected suit * 13 + rank, 0 to 51`);
  return card as Card;
};
export const checkedCardSuit = (card: Card): number => cardSuit(checkCard(card, 'cardSuit'));
export const checkedCardRank = (card: Card): number => cardRank(checkCard(card, 'cardRank'));
export function checkedMakeCard(suit: number, rank: number): Card {
  if (!Number.isInteger(suit) || suit < 0 || suit > 3) fail(`makeCard: bad suit ${shown(suit)}: expected 0 to 3 (C D H S)`);
  if (!Number.isInteger(rank) || rank < 0 || rank > 12) fail(`makeCard: bad rank ${shown(rank)}: expected 0 (ace) to 12 (king)`);
  return makeCard(suit, rank);
}
/** 0 black (clubs, spades), 1 red (diamonds, hearts). */
export const suitColour = (suit: number): number => (suit === 1 || suit === 2 ? 1 : 0);
export const cardColour = (card: Card): number => suitColour(cardSuit(card));

export function formatRank(rank: number): string {
  return (Number.isInteger(rank) && RANKS[rank]) || '?';
}

export function formatCard(card: Card): string {
  if (!Number.isInteger(card) || card < 0 || card >= 52) fail(`bad card code ${shown(card)}: expected suit * 13 + rank, 0 to 51`);
  return RANKS[cardRank(card)]! + SUITS[cardSuit(card)]!;
}

export function formatCards(cards: readonly Card[]): string {
  if (!Array.isArray(cards)) fail(`formatCards: bad cards ${shown(cards)}: expected a list of card codes`);
  return cards.map(formatCard).join(' ');
}

/** Parses a rank: A 2..9 T J Q K, also 10 and 1; case-insensitive. Returns -1 when it is not one. */
export function tryParseRank(text: string): number {
  if (typeof text !== 'string') return -1;
  const t = text.trim().toUpperCase();
  if (t === '10') return 9;
  if (t === '1') return 0;
  if (t.length !== 1) return -1;
  return RANKS.indexOf(t);
}

export function parseRank(text: string): number {
  const rank = tryParseRank(text);
  if (rank < 0) fail(`bad rank ${shown(text)}: expected one of A 2 3 4 5 6 7 8 9 T J Q K (or 10)`);
  return rank;
}

/** Parses a card such as `TD`, `10d`, `as`. Returns -1 when the text is not a card. */
export function tryParseCard(text: string): Card {
  if (typeof text !== 'string') return -1;
  const t = text.trim().toUpperCase();
  if (t.length < 2 || t.length > 3) return -1;
  const suit = SUITS.indexOf(t[t.length - 1]!);
  const rank = tryParseRank(t.slice(0, -1));
  if (suit < 0 || rank < 0) return -1;
  return makeCard(suit, rank);
}

export function parseCard(text: string): Card {
  const card = tryParseCard(text);
  if (card < 0) fail(`bad card ${shown(text)}: expected rank then suit, e.g. TD, 10d, AS`);
  return card;
}

/** The ordered deck of a game with `ranks` ranks per suit: clubs A.., diamonds, hearts, spades. */
export function orderedDeck(ranks = RANKS_PER_SUIT_MAX): Card[] {
  if (!Number.isInteger(ranks) || ranks < 1 || ranks > RANKS_PER_SUIT_MAX) fail(`bad ranks ${shown(ranks)}: expected a whole number from 1 to ${RANKS_PER_SUIT_MAX}`);
  const deck: Card[] = [];
  for (let suit = 0; suit < 4; suit++) for (let rank = 0; rank < ranks; rank++) deck.push(makeCard(suit, rank));
  return deck;
}

/**
 * Parses a deck order written as card codes separated by spaces or commas, and checks that it holds
 * every card of a `ranks`-per-suit deck exactly once.
 */
export function parseDeck(text: string, ranks = RANKS_PER_SUIT_MAX): Card[] {
  if (typeof text !== 'string') fail(`bad deck ${shown(text)}: expected card codes as text, e.g. "AS 2S 3S ..."`);
  const words = text.split(/[\s,]+/).filter((w) => w.length > 0);
  const deck = words.map(parseCard);
  checkDeck(deck, ranks);
  return deck;
}

export function checkDeck(deck: readonly Card[], ranks = RANKS_PER_SUIT_MAX): void {
  const seen = new Set<Card>();
  for (const card of deck) {
    if (cardRank(card) >= ranks) fail(`card ${formatCard(card)} is not in a deck of ${ranks} ranks per suit`);
    if (seen.has(card)) fail(`duplicate card ${formatCard(card)} in the deck`);
    seen.add(card);
  }
  const missing = orderedDeck(ranks).filter((c) => !seen.has(c));
  if (missing.length > 0) {
    fail(`the deck is missing ${missing.length} card(s): ${formatCards(missing.slice(0, 8))}${missing.length > 8 ? ' ...' : ''}`);
  }
}
