import type { Move } from '../rules/move';

export type Verdict = 'winnable' | 'unwinnable' | 'unknown';
/** Why a search stopped before deciding. */
export type LimitReason = 'nodes' | 'time' | 'memory' | 'aborted';

export interface SolveOptions {
  /** Stop with `unknown` after this many expanded nodes. Default: no limit. */
  nodeLimit?: number;
  /** Stop with `unknown` after this many milliseconds. Default: no limit. */
  timeLimitMs?: number;
  /** Transposition table size in MiB; when it is full the search stops with `unknown`. Default 512. */
  memoryMiB?: number;
}

export interface SolveResult {
  verdict: Verdict;
  /** The winning moves from the given position (only when winnable); they replay with the referee. */
  moves?: Move[];
  /** Why the verdict is unknown. */
  reason?: LimitReason;
  /** Nodes expanded. */
  nodes: number;
  /** Distinct states stored in the transposition table. */
  uniqueStates: number;
  elapsedMs: number;
  /** Deepest search path, in solver moves. */
  maxDepth: number;
}
