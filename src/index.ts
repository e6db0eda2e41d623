/**
 * The public API of patience-solver. Everything a user (or the CLI) may import is exported here;
 * other modules are internal.
 */
export { PatienceError } from './errors';
export {
  type Card,
  formatCard,
  formatCards,
  parseCard,
  parseDeck,
  orderedDeck,
  cardRank,
  cardSuit,
  makeCard,
  formatRank,
  parseRank,
  SUITS,
  RANKS,
} from './cards/card';
export { shuffledDeck, SplitMix64, MAX_DEAL_NUMBER } from './cards/shuffle';
export {
  type Rules,
  type RulesOptions,
  type BuildPolicy,
  type MovePolicy,
  type SpacePolicy,
  type Preset,
  PRESETS as presets,
  PRESET_NAMES,
  resolveRules,
  presetRules,
  rulesToJson,
  deckSize,
  stockSize,
} from './rules/rules';
export { buildsOn, rankOrder, cardOrder } from './rules/order';
export {
  type Position,
  type PositionJson,
  parsePosition,
  formatPosition,
  validatePosition,
  describePosition,
  dealFromDeck,
  clonePosition,
  foundationCards,
  isWon,
} from './rules/position';
export { dealFromSeed, dealFromDeckText } from './rules/deal';
export type { Move, Place } from './rules/move';
