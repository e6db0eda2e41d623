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
   * Node budget of the first run in the games searched with restarts (the tableau-only games,
   * doubling it each run; the Canfield games, on the Luby sequence: see docs/algorithms.md).
   * Default 65,536 in the tableau-only games, 4,096 in the others. Small values serve tests.
   */
  restartNodes?: number;
  /** Memory budget in MiB (the table and the search stack); when it is spent the search stops with `unknown`. Default 1,024. */
  memoryMiB?: number;
  /**
   * Prune states proved unwinnable by the dead-state check (src/search/dead.ts). Default 'auto',
   * which is off in every game: it prunes states, but costs more time than it saves (in Hoyle's
   * canfield since rule 10 finds its commonest dead states before they are entered; see
   * docs/algorithms.md, rule 6); `true` turns it on (never for canfield-relaxed, where it does not
   * apply). It never changes a verdict, only how soon one is reached.
   */
  deadCheck?: boolean | 'auto';
}

export interface SolveResult {
  verdict: Verdict;
  /** The winning moves from the given position (only when winnable); they replay with the referee. */
  moves?: Move[];
  /** Why the verdict is unknown. */
  reason?: LimitReason;
  /** Nodes expanded (over all runs, when the search restarts: see docs/algorithms.md). */
  nodes: number;
  /**
   * Entries of the transposition table: distinct states, where the Canfield games count a state met
   * at several split classes once (one entry keeps them all); summed over the runs that clear the table.
   */
  uniqueStates: number;
  elapsedMs: number;
  /** Deepest depth-first search path, in solver moves. */
  maxDepth: number;
  /** States the dead-state check looked at, and those it proved unwinnable (when it is on). */
  deadChecked?: number;
  deadStates?: number;
  /** Of those, the ones proved by the pile count (docs/algorithms.md, "Dead states"). */
  deadByCount?: number;
}
