import { type Card, cardColour, cardRank, cardSuit } from '../cards/card';
import type { Rules } from './rules';

/**
 * The rank order in one idea: foundations build up from their base, and the tableau builds down in
 * the same cyclic order. A card's "order" is its distance above the base: 0 for the base rank,
 * ranks-1 for the rank just below it. Canister (base A), Storehouse (base 2: aces high) and the
 * Canfield games all reduce to this.
 */
export function rankOrder(rules: Rules, baseRank: number, rank: number): number {
  return (rank - baseRank + rules.ranks) % rules.ranks;
}

export const cardOrder = (rules: Rules, baseRank: number, card: Card): number => rankOrder(rules, baseRank, cardRank(card));

/** The rank whose order is `order`. */
export const rankAtOrder = (rules: Rules, baseRank: number, order: number): number => (baseRank + order) % rules.ranks;

/**
 * Whether `card` may be built onto `onto` on the tableau: one step below it in the order (round the
 * corner when the rules wrap), in the suit relation the rules ask for.
 */
export function buildsOn(rules: Rules, baseRank: number, card: Card, onto: Card): boolean {
  const below = cardOrder(rules, baseRank, card);
  const above = cardOrder(rules, baseRank, onto);
  const next = below + 1;
  const fitsRank = rules.wrap ? next % rules.ranks === above : next === above;
  if (!fitsRank) return false;
  switch (rules.build) {
    case 'any-suit':
      return true;
    case 'alternate-colors':
      return cardColour(card) !== cardColour(onto);
    case 'same-suit':
      return cardSuit(card) === cardSuit(onto);
  }
}

/** Whether `cards` (bottom to top) is a built sequence: each card builds on the one below it. */
export function isBuilt(rules: Rules, baseRank: number, cards: readonly Card[]): boolean {
  for (let i = 1; i < cards.length; i++) if (!buildsOn(rules, baseRank, cards[i]!, cards[i - 1]!)) return false;
  return true;
}

/** The base rank of rules with a fixed base, or -1 when it is dealt. */
export const fixedBase = (rules: Rules): number => (rules.base === 'dealt' ? -1 : rules.base);
