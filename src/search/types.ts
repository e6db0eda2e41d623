import type { Move } from '../rules/move';

export type Verdict = 'winnable' | 'unwinnable' | 'unknown';
/** Why a search stopped before deciding. */
export type LimitReason = 'nodes' | 'time' | 'memory';

export interface SolveOptions {
  /** Stop with `unknown` after this many expanded nodes. Default: no limit. */
  nodeLimit?: number;
  /**
   * Stop with `unknown` after this many milliseconds of search; a stretch in which the process was
   * stopped (Ctrl-Z, SIGSTOP) does not count (see `elapsedMs`). Default: no limit.
   */
  timeLimitMs?: number;
  /**
   * Node budget of the first run in the games searched with restarts (the tableau-only games,
   * doubling it each run; the Canfield games, on the Luby sequence: see docs/algorithms.md), and of
   * the first slice of Storehouse's one run when rule 13's search goes beside it (doubling each
   * slice). Default 65,536 in the tableau-only games, 4,096 in the others, 256 for the slices.
   * Small values serve tests.
   */
  restartNodes?: number;
  /** Memory budget in MiB (the table and the search stack); when it is spent the search stops with `unknown`. Default 1,024. */
  memoryMiB?: number;
  /**
   * Prune states proved unwinnable by the dead-state check (src/search/dead.ts; docs/algorithms.md,
   * rule 6). Default 'auto': its quick form in rule 10's games (only whole piles move, not built in
   * suit: Hoyle Canfield), in the real search and in rule 13's one-card search beside it, and off
   * elsewhere, where it costs more time than it saves; `true` turns the full check on (never where
   * foundation cards come back, as in canfield-relaxed, where it does not apply), `false` off. It
   * never changes a verdict, only how soon one is reached.
   */
  deadCheck?: boolean | 'auto';
  /**
   * Also search the same deal dealt one card at a time with unlimited redeals, beside the real
   * search, and answer unwinnable when that is proved unwinnable: there every stock card comes
   * round whenever it is wanted, so every line of the real game (any draw, any redeal limit) can be
   * played there too (docs/algorithms.md, rule 13). Default 'auto': on where it was measured to pay,
   * a draw of more than one with unlimited redeals where runs or whole piles move (canfield-sequences,
   * Hoyle Canfield), and Storehouse's redeal limit (rule 9's games); off elsewhere. `true` turns it
   * on wherever it applies: a stock that is not already dealt one at a time with unlimited redeals,
   * in the games whose runs keep their proofs (canfield-sequences, Hoyle Canfield) or are one run
   * (Storehouse and other games building in suit or regardless of suit with a stock). It never
   * changes a verdict, only how soon one is reached; a win is always the real game's.
   */
  drawOneProof?: boolean | 'auto';
  /**
   * Also search the same deal under stricter rules whose every line of play is one of the real
   * game's, beside the real search, and answer winnable with its win: where any card may fill a
   * space at any time (canfield-relaxed), the game where no card comes back from a foundation and
   * the reserve's top fills a space at once while the reserve lasts (which a player of the real game
   * may do as the next move). Its state space is far smaller, and its runs keep their proofs
   * (docs/algorithms.md, rule 14). Default 'auto': on where the real runs keep no proofs
   * (canfield-relaxed); `true` also where they do. It never changes a verdict, only how soon one is
   * reached; its win is given as moves of the real game, replayed by the referee first.
   */
  stricterGame?: boolean | 'auto';
  /**
   * Called about once a second while the search runs, from inside it (so keep it quick): how far it
   * has gone. The CLI's `solve` shows it on a terminal. Not passed to win-rate workers.
   */
  onProgress?: (progress: SolveProgress) => void;
}

/** How far a search has gone (`SolveOptions.onProgress`). */
export interface SolveProgress {
  /** Nodes expanded so far. */
  nodes: number;
  /** Time searched so far (as `SolveResult.elapsedMs`). */
  elapsedMs: number;
}

/**
 * What a search of the same deal under other rules, beside the real one, did: the deal dealt one
 * card at a time (`SolveOptions.drawOneProof`), whose loss proves the deal lost, or a stricter game
 * (`SolveOptions.stricterGame`), whose win is a win of the deal.
 */
export interface CompanionSearch {
  /** Nodes it expanded (counted in `SolveResult.nodes` too). */
  nodes: number;
  /**
   * 'unwinnable' or 'winnable': its verdict, which decided the deal when it is the one it proves
   * (a loss drawing one, a win of the stricter game) and proved nothing otherwise; 'stopped': it was
   * still going when the search ended, or its table no longer fitted beside the real one.
   */
  outcome: 'unwinnable' | 'winnable' | 'stopped';
}

/** What the search of the deal dealt one card at a time with unlimited redeals did (`SolveOptions.drawOneProof`). */
export type DrawOneProof = CompanionSearch;

export interface SolveResult {
  verdict: Verdict;
  /** The winning moves from the given position (only when winnable); they replay with the referee. */
  moves?: Move[];
  /** Why the verdict is unknown. */
  reason?: LimitReason;
  /** Nodes expanded (over all runs, when the search restarts, and those of `drawOne` or `stricterGame`: see docs/algorithms.md). */
  nodes: number;
  /**
   * Entries of the transposition table: distinct states, where the Canfield games count a state met
   * at several split classes once (one entry keeps them all); summed over the runs that clear the table,
   * and with the entries of the table of the search beside it (`drawOne`, `stricterGame`).
   */
  uniqueStates: number;
  /**
   * Time the search ran: the wall time, less any gap of more than 2 s between two of its checks of
   * the limits that its own work does not explain (the process was stopped and continued:
   * `SearchClock`). `timeLimitMs` counts the same.
   */
  elapsedMs: number;
  /** Deepest depth-first search path, in solver moves. */
  maxDepth: number;
  /** States the dead-state check looked at, and those it proved unwinnable (when it is on). */
  deadChecked?: number;
  deadStates?: number;
  /** Of those, the ones proved by the pile count (docs/algorithms.md, "Dead states"). */
  deadByCount?: number;
  /**
   * Of the states checked, those answered by a verdict kept for the same key without its split
   * (unlimited redeals: docs/algorithms.md, rule 6, "Verdicts kept by the key without its split").
   */
  deadFromKept?: number;
  /** When the deal dealt one card at a time with unlimited redeals was searched beside it (`SolveOptions.drawOneProof`). */
  drawOne?: DrawOneProof;
  /** When the deal under stricter rules was searched beside it (`SolveOptions.stricterGame`). */
  stricterGame?: CompanionSearch;
}
