import { parseDeck } from '../cards/card';
import { shuffledDeck } from '../cards/shuffle';
import { layOut, type Position } from './position';
import { type Rules, validateRules } from './rules';

/** The initial position of deal number `seed` (see docs/formats.md for the shuffle). */
export function dealFromSeed(rules: Rules, seed: number): Position {
  validateRules(rules);
  return layOut(rules, shuffledDeck(seed, rules.ranks));
}

/** The initial position of a deck order written as card codes (first dealt first). */
export function dealFromDeckText(rules: Rules, text: string): Position {
  validateRules(rules);
  return layOut(rules, parseDeck(text, rules.ranks));
}
