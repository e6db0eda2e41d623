import type { Move } from '../rules/move';

export type Verdict = 'winnable' | 'unwinnable' | 'unknown';
/** Why a search stopped before deciding. */
export type LimitReason = 'nodes' | 'time' | 'memory' | 'aborted';

export interface SolveOptions {
  /** Stop with `unknown` after this many expanded nodes. Default: no limit. */
  nodeLimit?: number;
  /** Stop with `unknown` after this many milliseconds. Default: no limit. */
  timeLimitMs?: number;
  /**
   * Node budget of the first run in the games searched with restarts (the tableau-only games; each
   * later run doubles it, see docs/algorithms.md). Default 65,536. Small values serve tests.
   */
  restartNodes?: number;
  /** Transposition table size in MiB; when it is full the search stops with `unknown`. Default 512. */
  memoryMiB?: number;
}

export interface SolveResult {
  verdict: Verdict;
  /** The winning moves from the given position (only when winnable); they replay with the referee. */
  moves?: Move[];
  /** Why the verdict is unknown. */
  reason?: LimitReason;
  /** Nodes expanded (over all runs, when the search restarts: see docs/algorithms.md). */
  nodes: number;
  /** Distinct states stored in the transposition table (summed over the runs, when the search restarts). */
  uniqueStates: number;
  elapsedMs: number;
  /** Deepest depth-first search path, in solver moves. */
  maxDepth: number;
}
