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
  checkedCardRank as cardRank,
  checkedCardSuit as cardSuit,
  checkedMakeCard as makeCard,
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
  changedOptions,
  validateRules,
  deckSize,
  stockSize,
} from './rules/rules';
export {
  type Position,
  type PositionJson,
  parsePosition,
  formatPosition,
  validatePosition,
  describePosition,
  dealFromDeck,
  checkedClonePosition as clonePosition,
  checkedFoundationCards as foundationCards,
  isWon,
} from './rules/position';
export { dealFromSeed, dealFromDeckText } from './rules/deal';
export type { Move, Place } from './rules/move';
export { legalMoves, applyMove, replay, parseMoves, parseMove, type ReplayResult } from './referee/referee';
export { formatMove, formatMoves, moveToJson, moveFromJson, type MoveJson } from './rules/notation';
export { bruteForce, type BruteForceOptions, type BruteForceResult } from './referee/brute-force';
export { shortenSolution } from './referee/shorten';
export { Solver, solve } from './search/solver';
export type { SolveOptions, SolveProgress, SolveResult, Verdict, LimitReason, DrawOneProof, CompanionSearch } from './search/types';
export { winRate, DEFAULT_TIME_LIMIT_MS, type WinRateOptions, type WinRateCallbacks, type WinRateProgress, type WinRateResult } from './pool/winrate';
export { defaultMemoryMiB, memoryWarning, MAX_DEFAULT_MEMORY_MIB } from './pool/memory';
export { solveDeals, rangeSource, defaultWorkers, type DealSource, type SolveDealsOptions, type SolveDealsResult } from './pool/pool';
export type { TestFaults } from './pool/batch';
export { wilsonInterval, winRateInterval, Z_95 } from './analyze/wilson';
export { type RunSummary, type SlowDeal, type ErrorDeal, formatPercent, percentDecimals } from './analyze/summary';
export { type DealRecord, type DealVerdict, type UnknownReason, DealTable } from './analyze/records';
export {
  type ResultHeader,
  type RunLimits,
  type ReadProblem,
  type ScanResult,
  scanResultFile,
  RESULT_FORMAT,
  RESULT_VERSION,
} from './analyze/result-file';
export { readResults, summarize, mergeResults, planMerge, csvLines, CSV_COLUMNS, type ResultSet, type MergeReport, type MergePlan, type DealGap } from './analyze/results';
export { parseShard, shardFromEnv, shardSlice, type Shard, type DealSlice } from './analyze/shards';
