import type { Move } from '../rules/move';
import type { Position } from '../rules/position';
import { validatePosition } from '../rules/position';
import { replay } from '../referee/referee';
import { SearchClock } from './clock';
import { type Companion, companionOf, ownMoves } from './companion';
import { DeadCheck } from './dead';
import { DeadVerdicts, verdictKeyWords } from './dead-verdicts';
import { Engine, MOVE_HEADROOM } from './engine';
import { MAX_KEY_WORDS } from './key';
import { inverseMove } from './move-code';
import { resolveOptions } from './options';
import { OpenList } from './open-list';
import { keepsFirstRuns, keepsProofs, longRunShare, luby, owedWork, RUN_NODES, RUN_NODES_WITH_TALON, ShallowSchedule, shallowPly, SLICE_NODES, type TableauRun, TableauSchedule } from './runs';
import { homeDirect, pathMoves, tracedMoves } from './solution';
import { grow, MOVES_KEPT, MOVES_START, newStack, PLY_FIELDS, shrink, type StackArrays, stackBytesOf } from './stack';
import { FULL, INSERTED, OPEN, PENDING, PRESENT, PROVEN, StateTable } from './table';
import type { CompanionSearch, LimitReason, SolveOptions, SolveResult } from './types';

/** Limits are checked every this many nodes, not every node. */
const CHECK_EVERY = 1024;
/** What the search asks of the dead-state check, and a check that is off (it costs nothing to make). */
type DeadStates = Pick<DeadCheck, 'enabled' | 'checked' | 'dead' | 'deadByCount' | 'fromKept' | 'isDead' | 'worthChecking'>;
export const NO_DEAD_CHECK: DeadStates = { enabled: false, checked: 0, dead: 0, deadByCount: 0, fromKept: 0, isDead: () => false, worthChecking: () => false };

/** Which dead-state check a game's runs make: none, the full one, or its quick form. */
type DeadKind = 'off' | 'full' | 'quick';

/**
 * The dead-state check of a deal's runs (rule 6): `true`, the full check in every game where cards
 * never leave a foundation (elsewhere the check cannot be made); 'auto', its quick form in rule 10's
 * games (only whole piles move, not built in suit, foundation cards stay: Hoyle Canfield), and none
 * elsewhere, where it was measured not to pay for its cost (docs/algorithms.md, rule 6, "The quick form").
 */
function deadKindOf(engine: Engine, setting: boolean | 'auto'): DeadKind {
  if (engine.foundationToTableau) return 'off';
  if (setting === true) return 'full';
  return setting === 'auto' && engine.noBurial ? 'quick' : 'off';
}

/** A run's dead-state check, answering from and into the deal's kept verdicts where they are kept (and given). */
function deadCheckOf(engine: Engine, kind: DeadKind, verdicts?: DeadVerdicts): DeadStates {
  return kind === 'off' ? NO_DEAD_CHECK : new DeadCheck(engine, true, kind === 'quick', verdicts);
}

/** canfield-relaxed: the short runs' table is kept for the next search while it holds at most this much. */
const SHORT_KEPT_BYTES = 8 << 20;
/** A stack kept from an earlier run is given small arrays again when it holds more than this fraction of the budget (`shrink`). */
const STACK_KEPT_SHARE = 16;
/**
 * canfield-relaxed: a short run cut off at a depth (`shallowPly`) goes whenever the work of such
 * runs is less than this share of the other short runs' (docs/algorithms.md, "Shallow runs").
 */
const SHALLOW_SHARE = 1 / 16;
/** The move orders of the shallow runs: their own, apart from every other run's (`Engine` variant). */
const SHALLOW_VARIANT = 1 << 20;

/** How one run of the search ended, the node count so far and its deepest ply. */
interface RunResult {
  outcome: 'winnable' | 'unwinnable' | LimitReason;
  nodes: number;
  maxDepth: number;
  /** Where a depth-first run stopped by its node or time limit stands, to go on from there. */
  paused?: PausedAt;
}

/** The place in its search of a depth-first run stopped by a limit: the ply it was at, how many plies keep their lists. */
interface PausedAt {
  depth: number;
  stored: number;
}

/**
 * A reusable solver: depth-first search over the engine's moves with an explicit stack, and a
 * transposition table of every state entered. A Solver keeps its table and stack buffers across
 * calls, so solving many deals allocates almost nothing after the first.
 *
 * The search is a plain graph search: a state already in the table (finished, or on the current
 * path) is not entered again. Every pruning it relies on is a property of the state alone (see
 * docs/algorithms.md), never of the path that reached it, which is what makes skipping a state seen
 * before sound: if a win is reachable from the root, the search finds one; if the stack empties
 * without one, every reachable state was searched and the deal is unwinnable.
 */
export class Solver {
  private readonly defaults: SolveOptions;
  private table: StateTable;
  private readonly key = new Uint32Array(MAX_KEY_WORDS);
  /** The tables' long steps, which the search clock counts as search (`StateTable.busy`). */
  private readonly busy = { ms: 0 };
  // The search stack, one entry per ply: the move list lives in `moves`, from start[ply] to end[ply],
  // with cursor[ply] the next to try; made[ply] and undoInfo[ply] are the move taken from this ply.
  // Only the plies whose lists fit under MOVES_KEPT are kept ("stored", a prefix of the path): a
  // deeper ply's list is written at the one place after the stored ones, overwritten by its child's,
  // and generated again when the search comes back to it (generation is deterministic), so a path
  // millions of plies deep costs 24 bytes a ply, not its move lists.
  private moves = new Int32Array(MOVES_START);
  private start = new Int32Array(1 << 10);
  private end = new Int32Array(1 << 10);
  private cursor = new Int32Array(1 << 10);
  private made = new Int32Array(1 << 10);
  private undoInfo = new Int32Array(1 << 10);
  // inverse[ply]: the move that would take the move into this ply straight back (see below), or -1.
  private inverse = new Int32Array(1 << 10);
  // Where runs keep their proofs: entryOf[ply] is the table entry of the ply's state (and laneOf[ply]
  // its lane, or -1), low[ply] the shallowest ply on the path that the search below it leaned on
  // (see `close`).
  private entryOf = new Int32Array(1 << 10);
  private laneOf = new Int32Array(1 << 10);
  private low = new Int32Array(1 << 10);
  // lostRank[ply]: where the ply's state was entered again at a lower rank after being proved lost
  // at a higher one, that rank (its list leaves out the moves that state has too: rule 12), or -1.
  private lostRank = new Int32Array(1 << 10);
  // otherLost[ply]: 1 where the table holds the ply's state at another split class proved lost
  // (rule 12 across classes: its list leaves out the waste cards every split reaches), else 0.
  private otherLost = new Int32Array(1 << 10);

  constructor(options: SolveOptions = {}) {
    this.defaults = options;
    this.table = new StateTable(resolveOptions(options, undefined).memoryMiB * 1024 * 1024, this.busy, this.reclaim);
    this.mainTable = this.table;
  }

  solve(position: Position, options?: SolveOptions): SolveResult {
    validatePosition(position);
    const o = resolveOptions(this.defaults, options);
    const clock = new SearchClock(o.timeLimitMs, { busy: this.busy, onProgress: o.onProgress });
    const table = this.table;
    this.budgetBytes = o.memoryMiB * 1024 * 1024;
    const deadStats = { enabled: false, checked: 0, dead: 0, byCount: 0, fromKept: 0 };
    // Rules 13 and 14: the deal under other rules, searched beside the real one (see `companionRun`).
    let companionReport: (CompanionSearch & { entries: number; field: Companion['field'] }) | undefined;
    this.companionTable = undefined;
    this.companionStack = undefined;
    this.open = undefined;
    let nodes = 0;
    let maxDepth = 0;
    let unique = 0;
    const finish = (verdict: SolveResult['verdict'], reason?: LimitReason, moves?: Move[]): SolveResult => {
      const result: SolveResult = {
        verdict,
        nodes,
        uniqueStates: unique,
        elapsedMs: clock.elapsedMs(),
        maxDepth,
      };
      if (moves) result.moves = moves;
      if (reason) result.reason = reason;
      if (deadStats.enabled) {
        result.deadChecked = deadStats.checked;
        result.deadStates = deadStats.dead;
        result.deadByCount = deadStats.byCount;
        result.deadFromKept = deadStats.fromKept;
      }
      if (this.shortTable && this.shortTable.heldBytes > SHORT_KEPT_BYTES) {
        this.shortTable = undefined;
        this.shortStack = undefined;
      }
      if (this.openTable && this.openTable.heldBytes > SHORT_KEPT_BYTES) {
        this.openTable = undefined;
        this.openStack = undefined;
      }
      this.open = undefined;
      if (companionReport) {
        if (this.companionTable) this.dropCompanionTable(companionReport);
        result[companionReport.field] = { nodes: companionReport.nodes, outcome: companionReport.outcome };
        result.uniqueStates += companionReport.entries;
      }
      return result;
    };
    const first = new Engine(position);
    if (first.isWon()) return finish('winnable', undefined, []);
    // Rule 6: the check's verdicts, kept by the key without its split for this deal's runs, where
    // the check reads nothing of the talon's order (unlimited redeals).
    const deadKind = deadKindOf(first, o.deadCheck);
    this.verdicts.begin(deadKind === 'off' ? undefined : verdictKeyWords(first.piles, 4 * first.ranks, first.talon.length, first.talon.redealLimit), this.budgetBytes);

    // Runs: one depth-first search, or a series of them with growing node budgets and different
    // move orders (restarts, see docs/algorithms.md). The tableau-only games and canfield-relaxed
    // start each run afresh (best-first every other run in the tableau-only games), but for their
    // long runs, which go on where they stopped (canfield-relaxed's first, Canister's first two);
    // canfield-sequences and Hoyle Canfield keep the states a run proved lost (`keepsProofs`).
    // Only a run that ends by itself gives a verdict. In canfield-sequences the deal dealt one card
    // at a time is searched between the runs (rule 13, below), and its loss is a verdict too.
    const keeps = keepsProofs(first);
    const restarts = first.ordered || keeps;
    // canfield-relaxed: the first run, in the plain order, is the long one; stopped by its budget,
    // it waits in its table (`paused`) while short runs go, and goes on later. A few short runs are
    // shallow: cut off at a depth, for the short wins that every deep run passes by.
    const longRun = restarts && !keeps && !first.tableauOnly;
    // The tableau-only games' runs (`TableauSchedule`). In Canister the first two go on where they
    // stopped: the depth-first one waits in the Solver's table (`paused`) and the best-first one in
    // its own (`bestFirstRun`), while the restarts go in the short runs' table.
    const tableau = first.tableauOnly ? new TableauSchedule(o.restartNodes ?? RUN_NODES, keepsFirstRuns(first)) : undefined;
    let openEngine: Engine | undefined;
    let paused: PausedAt | undefined;
    let longWork = 0;
    let shortEntries = 0;
    // The search beside the real one (rules 13 and 14), worked out when a real run first stops by
    // its budget (most deals are decided before), or at once where the real search is one run: that
    // run then goes in slices of doubling budgets (from SLICE_NODES) when rule 13 applies (Storehouse),
    // paused after each, as canfield-relaxed's long run is, while the relaxed search catches up, then
    // on from where it stopped.
    let companion: Companion | undefined;
    let companionOn = true;
    if (!restarts) {
      companion = companionOf(position, first, o);
      companionOn = companion !== undefined;
    }
    const sliced = !restarts && companionOn;
    let lubyRuns = 0;
    let lubyWork = 0;
    const shallowRuns = new ShallowSchedule();
    // canfield-relaxed: whether the long run still holds its table (memory ends it, below), and the
    // short runs given up on memory and made again in the same order.
    let longKept = longRun;
    let madeAgain = 0;
    let uniqueBefore = 0;
    for (let run = 0; ; run++) {
      let r: RunResult;
      let dead: DeadStates = NO_DEAD_CHECK;
      let t: TableauRun | undefined;
      if (tableau) {
        // Budgets (nodes) double in the tableau-only games, whose hard deals are lost ones that a
        // run must search to the end; every other run is best-first (`TableauSchedule`).
        t = tableau.next(run);
        const engine = t.step === 0 ? first : t.step === 1 && tableau.keepsFirst ? (openEngine ??= new Engine(position, 1)) : new Engine(position, t.step);
        const cap = Math.min(o.nodeLimit, nodes + t.budget);
        dead = deadCheckOf(engine, deadKind, this.verdicts);
        if (tableau.keepsFirst && t.step === 1) {
          r = this.bestFirstRun(engine, position, nodes, cap, clock);
        } else if (tableau.keepsFirst && t.step > 1) {
          r = this.shortRun(engine, position, nodes, cap, clock, dead, Infinity, t.step % 2 === 1);
          shortEntries += this.shortTable!.count;
        } else {
          if (!t.resume) {
            uniqueBefore = unique;
            table.clear();
            this.shrinkStack();
          }
          this.shareBudget();
          r = t.step % 2 === 1 ? this.bestFirst(engine, position, nodes, cap, clock) : this.depthFirst(engine, position, nodes, cap, clock, dead, false, t.resume ? paused : undefined);
          paused = r.paused;
        }
      } else {
        const firstRun = o.restartNodes ?? RUN_NODES_WITH_TALON;
        const longShare = longRunShare(lubyWork + longWork, firstRun);
        const resume = sliced ? run > 0 : paused !== undefined && owedWork(longShare, lubyWork, longWork) > 0;
        const short = longRun && run > 0 && !resume;
        // A shallow run has move orders of its own, so the other runs keep theirs (numbered as if
        // there were no shallow runs).
        const shallow = short && shallowRuns.work < lubyWork * SHALLOW_SHARE;
        const engine = run === 0 || resume ? first : new Engine(position, shallow ? SHALLOW_VARIANT + shallowRuns.count : run - shallowRuns.count - madeAgain);
        // Where runs keep their proofs, no run needs to be long: they follow the Luby sequence. So do
        // canfield-relaxed's short runs, for the wins some order meets soon; its long run goes on
        // whenever its work falls below its share of theirs (`longRunShare`: larger late in the
        // series), for the wins no short run meets and for the losses, which a run must search to
        // the end (docs/algorithms.md, "Restarts").
        let cap = o.nodeLimit;
        let budget = 0;
        if (restarts) {
          if (longRun && !short) budget = run === 0 ? firstRun : owedWork(longShare, lubyWork, longWork);
          else if (shallow) budget = shallowRuns.nextBudget(firstRun);
          else budget = firstRun * luby(++lubyRuns);
          if (longRun && !short) longWork += budget;
          else if (!shallow) lubyWork += budget;
          cap = Math.min(o.nodeLimit, nodes + budget);
        } else if (sliced) cap = Math.min(o.nodeLimit, nodes + (o.restartNodes ?? SLICE_NODES) * 2 ** run);
        dead = deadCheckOf(engine, deadKind, this.verdicts);
        if (short) {
          r = this.shortRun(engine, position, nodes, cap, clock, dead, shallow ? shallowPly(engine, shallowRuns.level) : Infinity, false);
          // A shallow run stopped by its budget is paused; one that ran out of states ends 'nodes' as well.
          if (shallow && r.outcome === 'nodes') shallowRuns.ended(r.paused !== undefined);
          shortEntries += this.shortTable!.count;
        } else {
          if (!resume) {
            if (!(keeps && run > 0 && table.newRun())) {
              uniqueBefore = unique;
              table.clear();
            }
            this.shrinkStack();
          }
          this.shareBudget();
          r = this.depthFirst(engine, position, nodes, cap, clock, dead, keeps, resume ? paused : undefined);
          if (longRun || sliced) paused = r.paused;
        }
        // canfield-relaxed: memory ran out while the long run holds some. The long run is given up
        // and its table gives its memory back; the short runs go on with all of it, the one that
        // found no room again in the same order with the same budget (a shallow one gives way to
        // the next shallow run, whose budget is the same). Only once no long run is left does
        // memory end the search.
        if (r.outcome === 'memory' && longKept) {
          longKept = false;
          uniqueBefore += this.dropMainRun();
          paused = undefined;
          if (short && !shallow) {
            lubyRuns--;
            lubyWork -= budget;
            madeAgain++;
          }
          nodes = r.nodes;
          continue;
        }
      }
      nodes = r.nodes;
      // Canister: memory ran out where the first runs hold some. The first run that filled it is
      // dropped; a restart that filled it goes again once both are dropped, with their memory.
      if (r.outcome === 'memory' && tableau && t && (tableau.keeps(0) || tableau.keeps(1))) {
        const drops = t.step < 2 ? [t.step] : [0, 1];
        for (const step of drops) {
          if (!tableau.keeps(step)) continue;
          tableau.drop(step);
          if (step === 0) {
            uniqueBefore += this.dropMainRun();
            paused = undefined;
          } else {
            uniqueBefore += this.openTable?.count ?? 0;
            this.open = undefined;
            this.openTable = undefined;
            this.openStack = undefined;
          }
        }
        if (t.step >= 2) tableau.again(t);
        continue;
      }
      if (dead.enabled) {
        deadStats.enabled = true;
        deadStats.checked += dead.checked;
        deadStats.dead += dead.dead;
        deadStats.byCount += dead.deadByCount;
        deadStats.fromKept += dead.fromKept;
      }
      if (r.maxDepth > maxDepth) maxDepth = r.maxDepth;
      unique = uniqueBefore + table.count + shortEntries + (this.open ? this.openTable!.count : 0);
      if (r.outcome === 'winnable') {
        // Printed as a player would play it: a card home in one move, not by way of a pile.
        const moves = homeDirect(this.won!);
        this.won = undefined;
        return finish('winnable', undefined, moves);
      }
      if (r.outcome === 'unwinnable') return finish('unwinnable');
      if (r.outcome !== 'nodes' || nodes >= o.nodeLimit) return finish('unknown', r.outcome);
      // Rules 13 and 14: after a real run stopped by its budget, the search of the deal under other
      // rules catches up to its share of the work. It keeps its proofs in a table of its own across
      // its runs (Luby budgets, as the real series), so it goes on where it stopped.
      if (companionOn && !companion) {
        companion = companionOf(position, first, o);
        companionOn = companion !== undefined;
      }
      if (companion && companionOn) {
        const report = (companionReport ??= { nodes: 0, outcome: 'stopped', entries: 0, field: companion.field });
        while (report.nodes < companion.share * (nodes - report.nodes)) {
          if (report.nodes >= companion.maxNodes) {
            // Its nodes are spent: the real search goes on alone, with all the memory.
            this.dropCompanionTable(report);
            companionOn = false;
            break;
          }
          const before = nodes;
          const budget = Math.min((o.restartNodes ?? RUN_NODES_WITH_TALON) * luby(++companion.runs), companion.maxNodes - report.nodes);
          const d = this.companionRun(companion.position, companion.runs - 1, nodes, Math.min(o.nodeLimit, nodes + budget), clock, o.deadCheck);
          nodes = d.nodes;
          report.nodes += nodes - before;
          if (d.maxDepth > maxDepth) maxDepth = d.maxDepth;
          if (d.outcome === companion.proves) {
            report.outcome = d.outcome;
            return d.outcome === 'winnable' ? finish('winnable', undefined, this.stricterWin(position)) : finish('unwinnable');
          }
          if (d.outcome === 'winnable' || d.outcome === 'unwinnable' || d.outcome === 'memory') {
            // A verdict that proves nothing (drawing one wins, the stricter game is lost), or its
            // table no longer fits beside the real one: the real search goes on alone, with all
            // the memory.
            if (d.outcome !== 'memory') report.outcome = d.outcome;
            this.won = undefined;
            this.dropCompanionTable(report);
            companionOn = false;
            break;
          }
          if (d.outcome !== 'nodes' || nodes >= o.nodeLimit) return finish('unknown', d.outcome);
        }
      }
    }
  }

  /**
   * The stricter game's win (rule 14, left in `this.won` by its run) as moves of the real game from
   * `position`, replayed by the referee: every line of the stricter game is one of the real game,
   * so a win that does not replay is a bug, and is thrown as one rather than answered.
   */
  private stricterWin(position: Position): Move[] {
    const moves = homeDirect(ownMoves(this.won!));
    this.won = undefined;
    const check = replay(position, moves);
    if (!check.legal || !check.won) throw new Error(`rule 14: the stricter game's win does not replay in the real game (${check.legal ? 'not won' : `move ${check.failedAt! + 1}: ${check.reason}`})`);
    return moves;
  }

  /**
   * Canister's best-first run, which goes on where it stopped (`TableauSchedule`): its open states,
   * table and stack, kept while the other runs go; the open list only for the current `solve`.
   */
  private open: OpenList | undefined;
  private openTable: StateTable | undefined;
  private openStack: StackArrays | undefined;

  /** Canister's best-first run, in its own table and stack, going on from `open` where it stopped (`TableauSchedule`). */
  private bestFirstRun(engine: Engine, position: Position, nodes: number, cap: number, clock: SearchClock): RunResult {
    const open = (this.open ??= new OpenList());
    const table = (this.openTable ??= new StateTable(0, this.busy, this.reclaim));
    return this.aside(table, (this.openStack ??= newStack()), () => {
      if (!open.started) table.clear();
      return this.bestFirst(engine, position, nodes, cap, clock, open);
    });
  }

  /**
   * Gives up the run that waits in the Solver's own table and stack (canfield-relaxed's long run,
   * Canister's depth-first first run) when memory runs out: the table and the stack give their
   * memory back to the other runs. Answers how many entries the table held.
   */
  private dropMainRun(): number {
    const count = this.mainTable.count;
    this.mainTable.clear();
    this.mainTable.trim();
    this.shrinkStack();
    return count;
  }

  /** The table and stack of canfield-relaxed's short runs, while its long run waits in the Solver's (`shortRun`). */
  private shortTable: StateTable | undefined;
  private shortStack: StackArrays | undefined;

  /**
   * A short run of canfield-relaxed, or a restart of Canister (best-first where `best`), from
   * scratch in a table and stack of its own, so that the long runs' stay as they left them; each
   * holds what the others do not, within one budget.
   */
  private shortRun(engine: Engine, position: Position, nodes: number, cap: number, clock: SearchClock, dead: DeadStates, maxPly: number, best: boolean): RunResult {
    const table = (this.shortTable ??= new StateTable(0, this.busy, this.reclaim));
    return this.aside(table, (this.shortStack ??= newStack()), () => {
      table.clear();
      this.shrinkStack();
      this.shareBudget();
      return best ? this.bestFirst(engine, position, nodes, cap, clock) : this.depthFirst(engine, position, nodes, cap, clock, dead, false, undefined, maxPly);
    });
  }

  /**
   * Runs `search` with `table` and `stack` in place of the Solver's own, which stay as they are (a
   * paused run goes on from them later), and puts them back.
   */
  private aside(table: StateTable, stack: StackArrays, search: () => RunResult): RunResult {
    const own = this.table;
    this.table = table;
    this.swapStack(stack);
    try {
      return search();
    } finally {
      this.table = own;
      this.swapStack(stack);
    }
  }

  /** The search stack's arrays, as one object (they are this Solver's fields, for the hot loop). */
  private get stack(): StackArrays {
    return this as unknown as StackArrays;
  }

  /** Exchanges the search stack's arrays with `other`'s. */
  private swapStack(other: StackArrays): void {
    const stack = this.stack;
    for (const f of ['moves', ...PLY_FIELDS] as const) {
      const a = stack[f];
      stack[f] = other[f];
      other[f] = a;
    }
  }

  /** The table and stack of the search beside the real one (rules 13 and 14), while it goes on; undefined otherwise. */
  private companionTable: StateTable | undefined;
  private companionStack: StackArrays | undefined;

  /**
   * One run of the search of the deal under other rules (rules 13 and 14, docs/algorithms.md), with
   * its own table and stack in place of the real ones, which stay as the real search left them (a
   * paused long run goes on from there later); each counts against the other's budget. A win is
   * left in `this.won`, for the caller to take (rule 14) or drop.
   */
  private companionRun(position: Position, run: number, nodes: number, cap: number, clock: SearchClock, deadCheck: boolean | 'auto'): RunResult {
    const table = (this.companionTable ??= new StateTable(0, this.busy, this.reclaim));
    return this.aside(table, (this.companionStack ??= newStack()), () => {
      if (!(run > 0 && table.newRun())) table.clear();
      this.shareBudget();
      const engine = new Engine(position, run);
      // Rule 6 as in a real search of this game (the quick form in Hoyle Canfield's), without the
      // real deal's kept verdicts, whose keys are the real game's.
      return this.depthFirst(engine, position, nodes, cap, clock, deadCheckOf(engine, deadKindOf(engine, deadCheck)), true);
    });
  }

  /** Gives the companion's table and stack back, counting its entries: the real search has all the memory again. */
  private dropCompanionTable(counts: { entries: number }): void {
    counts.entries += this.companionTable?.count ?? 0;
    this.companionTable = undefined;
    this.companionStack = undefined;
  }

  private won: Move[] | undefined;
  /** The dead-state check's verdicts for the current deal (rule 6), where they are kept. */
  private readonly verdicts = new DeadVerdicts();
  /** The memory budget of the current `solve`, in bytes. */
  private budgetBytes = 0;

  /**
   * One depth-first search from the root, counting nodes on from `nodes` up to `nodeCap`; or, with
   * `from`, the same search going on where a node or time limit stopped it (the engine, table and
   * stack as it left them). Answers how it ended, the node count and the deepest ply (and, stopped
   * by a limit, where it stands); a win leaves its moves in `this.won`.
   */
  private depthFirst(
    engine: Engine,
    position: Position,
    nodes: number,
    nodeCap: number,
    clock: SearchClock,
    dead: DeadStates,
    keeps: boolean,
    from?: PausedAt,
    maxPly = Infinity,
  ): RunResult {
    const table = this.table;
    // Whether a state was left unsearched at `maxPly`: the run then proves nothing lost.
    let cut = false;
    const key = this.key;
    let maxDepth = 0;
    const stop = (outcome: RunResult['outcome']): RunResult => ({ outcome, nodes, maxDepth });
    // Plies 0 .. stored-1 keep their move lists; deeper plies regenerate theirs on the way back.
    let depth = 0;
    let stored = 1;
    if (from) {
      depth = from.depth;
      stored = from.stored;
    } else {
      if (dead.isDead()) return stop('unwinnable');
      const rootRank = engine.passRank();
      const rootLane = engine.laneOf(rootRank);
      if (table.insert(key, engine.encode(key, rootRank), rootRank, rootLane) === FULL) return stop('memory');
      this.entryOf[0] = table.lastOffset;
      this.laneOf[0] = rootLane;
      this.low[0] = 0;
      this.start[0] = 0;
      this.cursor[0] = 0;
      this.inverse[0] = -1;
      this.lostRank[0] = -1;
      this.otherLost[0] = 0;
      this.end[0] = this.generateAt(engine, 0, -1, 0);
    }

    while (depth >= 0) {
      if (this.cursor[depth] === this.end[depth]) {
        if (keeps) this.close(depth);
        if (stored > depth) stored = depth;
        depth--;
        if (depth >= 0) {
          engine.undo(this.made[depth]!, this.undoInfo[depth]!);
          // Same state, same list: the cursor goes on where it stopped.
          if (depth >= stored) this.end[depth] = this.generateAt(engine, this.start[depth]!, this.lostRank[depth]!, this.otherLost[depth]!);
        }
        continue;
      }
      const m = this.moves[this.cursor[depth]++]!;
      // Moving a run straight back leads to the state this ply came from, which is in the table:
      // skipping it saves the node and changes nothing else.
      if (m === this.inverse[depth]) {
        if (keeps && depth - 1 < this.low[depth]!) this.low[depth] = depth - 1;
        continue;
      }
      const info = engine.make(m);
      nodes++;
      if (nodes >= nodeCap || ((nodes & (CHECK_EVERY - 1)) === 0 && clock.check(nodes))) {
        // Stopped by a limit: the move is taken back (to be made again, and counted again, by a
        // run that goes on from here).
        engine.undo(m, info);
        this.cursor[depth]--;
        return { outcome: nodes >= nodeCap ? 'nodes' : 'time', nodes, maxDepth, paused: { depth, stored } };
      }
      if (engine.isWon()) {
        this.made[depth] = m;
        this.undoInfo[depth] = info;
        this.won = pathMoves(position, this.made, depth + 1);
        return stop('winnable');
      }
      const rank = engine.passRank();
      const lane = engine.laneOf(rank);
      const words = engine.encode(key, rank);
      const status = table.insert(key, words, rank, lane);
      if (status === PRESENT) {
        engine.undo(m, info);
        if (keeps) this.leanOn(depth, lane);
        continue;
      }
      if (status === FULL) return stop('memory');
      // A state proved dead stays in the table (it is dead whichever way it is reached again; under
      // pass dominance a lower rank enters it again, and it is checked again). In lanes the redeals
      // are unlimited, and the check reads nothing of the split: the state is lost at every split,
      // so every lane of its entry is proved, at rank 0 (rule 6, "Lost at every split"). Only states
      // entered by a move that covers a card are checked (see DeadCheck.worthChecking).
      if (dead.worthChecking(m) && dead.isDead(key, words)) {
        if (keeps) {
          if (lane >= 0) table.proveEveryLane(table.lastOffset);
          else table.setStatus(table.lastOffset, PROVEN, lane);
        }
        engine.undo(m, info);
        continue;
      }
      if (depth + 1 >= maxPly) {
        cut = true;
        engine.undo(m, info);
        continue;
      }
      this.made[depth] = m;
      this.undoInfo[depth] = info;
      // A stored parent's list ends where this one starts; a regenerated parent's list is dropped.
      const at = depth < stored ? this.end[depth]! : this.start[depth]!;
      depth++;
      if (depth > maxDepth) maxDepth = depth;
      if (depth + 1 >= this.start.length) {
        this.ensurePly(depth);
        if (!this.shareBudget()) return stop('memory');
      }
      if (depth === stored && at + MOVE_HEADROOM <= MOVES_KEPT) stored++;
      this.inverse[depth] = inverseMove(m, info);
      this.entryOf[depth] = table.lastOffset;
      this.laneOf[depth] = lane;
      this.low[depth] = depth;
      this.lostRank[depth] = keeps ? table.lostRank : -1;
      this.otherLost[depth] = keeps && lane >= 0 && table.otherLost ? 1 : 0;
      this.start[depth] = at;
      this.cursor[depth] = at;
      this.end[depth] = this.generateAt(engine, at, this.lostRank[depth]!, this.otherLost[depth]!);
    }
    // A run cut off at its depth has searched only part of the space: as if stopped by its budget.
    return stop(cut ? 'nodes' : 'unwinnable');
  }

  /**
   * Best-first graph search, for the games with only a tableau (the Canister family), where a
   * depth-first walk wanders through millions of rearrangements of the same cards. The open states
   * wait in buckets by `Engine.evaluate` (`OpenList`) and are re-loaded from their keys in the
   * table; each entered state keeps its parent, so a win is traced back. It enters exactly the
   * states the depth-first search would (every state reachable through generated moves, each once),
   * only in another order: when the buckets run empty the deal is unwinnable. Given an open list
   * a limit stopped, it goes on from there (the table as that search left it).
   */
  private bestFirst(
    engine: Engine,
    position: Position,
    nodes: number,
    nodeCap: number,
    clock: SearchClock,
    open = new OpenList(),
  ): RunResult {
    const stop = (outcome: RunResult['outcome']): RunResult => ({ outcome, nodes, maxDepth: 0 });
    const table = this.table;
    const key = this.key;
    // The open list's arrays share the budget with the table.
    this.shareBudget(open.bytes);
    if (!open.started) {
      if (table.insert(key, engine.encode(key)) === FULL) return stop('memory');
      open.push(0, table.lastOffset, -1, engine.evaluate());
    }
    if (this.moves.length < MOVE_HEADROOM) this.moves = new Int32Array(MOVE_HEADROOM);
    const moves = this.moves;
    let cur = open.cur;
    let i = open.next;
    for (;;) {
      if (cur < 0) {
        cur = open.pop();
        if (cur < 0) break;
        i = 0;
      }
      // Rank 0: only the tableau-only games run best-first, and their keys hold the whole state.
      engine.load(key, table.keyAt(open.offsetOf[cur]!, key));
      const n = engine.generate(moves, 0);
      for (; i < n; i++) {
        const m = moves[i]!;
        const info = engine.make(m);
        nodes++;
        if (nodes >= nodeCap || ((nodes & (CHECK_EVERY - 1)) === 0 && clock.check(nodes))) {
          // Stopped by a limit: the move is made again, and counted again, by a run that goes on from here.
          engine.undo(m, info);
          open.cur = cur;
          open.next = i;
          return stop(nodes >= nodeCap ? 'nodes' : 'time');
        }
        if (engine.isWon()) {
          this.won = this.tracedSolution(position, cur, open.offsetOf, open.parentOf);
          return stop('winnable');
        }
        const status = table.insert(key, engine.encode(key));
        if (status === FULL) return stop('memory');
        if (status === INSERTED) {
          const idx = table.count - 1;
          if (idx >= open.offsetOf.length && !this.shareBudget(open.bytesFor(idx))) return stop('memory');
          open.push(idx, table.lastOffset, cur, engine.evaluate());
        }
        engine.undo(m, info);
      }
      cur = -1;
    }
    return stop('unwinnable');
  }

  /**
   * The moves from the root to a win whose last open state is entry `last` of the best-first
   * search: the chain of parents gives the states (`tracedMoves`).
   */
  private tracedSolution(position: Position, last: number, offsetOf: Int32Array, parentOf: Int32Array): Move[] {
    const chain: number[] = [];
    for (let i = last; i >= 0; i = parentOf[i]!) chain.push(i);
    chain.reverse();
    return tracedMoves(position, chain.length - 1, (step, into) => this.table.keyAt(offsetOf[chain[step]!]!, into));
  }

  /**
   * Runs that keep their proofs (docs/algorithms.md, "Restarts that keep their proofs"): a ply
   * whose moves are all searched closes. Its state is PROVEN lost when nothing searched below it
   * leaned on a state still open above it (low[ply] >= ply), and PENDING otherwise; its parent
   * inherits what it leaned on. A ply whose entry a deeper ply entered again (at a lower rank) and
   * closed already leaves that status alone.
   */
  private close(ply: number): void {
    const off = this.entryOf[ply]!;
    const lane = this.laneOf[ply]!;
    const low = this.low[ply]!;
    if (this.table.statusAt(off, lane) === OPEN) this.table.setStatus(off, low >= ply ? PROVEN : PENDING, lane);
    if (ply > 0 && low < this.low[ply - 1]!) this.low[ply - 1] = low;
  }

  /**
   * A move from the state at `ply` met a state already entered (the table's last entry, in lane
   * `lane`): a PROVEN
   * one is lost, so nothing; an OPEN one is on the path, and the state at `ply` leans on it; a
   * PENDING one leans on some open state that is not known here, so on the root (-1: nothing on
   * this path can be proven by this run).
   */
  private leanOn(ply: number, lane: number): void {
    const off = this.table.lastOffset;
    const status = this.table.statusAt(off, lane);
    if (status === PROVEN) return;
    let on = -1;
    if (status === OPEN) for (on = ply; on >= 0 && (this.entryOf[on] !== off || this.laneOf[on] !== lane); on--);
    if (on < this.low[ply]!) this.low[ply] = on;
  }

  /** The Solver's own table, the real search's (the long run's in canfield-relaxed), whichever table is in `table` now. */
  private readonly mainTable: StateTable;

  /**
   * Bytes held by the tables and stacks not in use now (the real search's while a short run or the
   * search beside it runs, and theirs), counted against the budget of those in use. The holders of
   * the other stacks hold whichever arrays are not the Solver's own now (`swapStack`).
   */
  private othersBytes(): number {
    let bytes = 0;
    for (const t of this.otherTables()) bytes += t.heldBytes;
    for (const s of [this.shortStack, this.companionStack, this.openStack]) if (s !== undefined) bytes += stackBytesOf(s);
    if (this.open && this.table !== this.openTable) bytes += this.open.bytes;
    return bytes;
  }

  /**
   * One memory budget (docs/algorithms.md, "The transposition table"): the table may fill what the
   * search stack, the `other` bytes (a best-first run's open list) and the tables and stacks not in
   * use now (`othersBytes`) do not hold. Answers whether what the table holds already fits.
   */
  private shareBudget(other = 0): boolean {
    this.sharedOther = other;
    this.table.maxBytes = this.budgetBytes - this.stackBytes() - other - this.othersBytes() - this.verdicts.bytes;
    return this.table.bytes <= this.table.maxBytes;
  }

  /** The bytes beside the stack that the last `shareBudget` kept from the table in use (an open list's). */
  private sharedOther = 0;

  /**
   * Given to every table of this solver (`StateTable`'s reclaim): when the table in use is full, the
   * others give back what they hold and do not use (`StateTable.trim`: the segments a cleared table
   * kept for its next search, spare slot arrays), and the budget is shared again. Their entries stay,
   * so a run that waits in one goes on as it was.
   */
  private readonly reclaim = (): boolean => {
    // Asked on every insert of a table that is full but for its slots' doubling: no array made
    // until there is something to give back.
    const spare = this.spareOf(this.mainTable) + this.spareOf(this.shortTable) + this.spareOf(this.companionTable) + this.spareOf(this.openTable);
    if (spare === 0) return false;
    for (const t of this.otherTables()) t.trim();
    this.shareBudget(this.sharedOther);
    return true;
  };

  /** What `t`, if it is one of the tables not in use now, would give back (`StateTable.trim`). */
  private spareOf(t: StateTable | undefined): number {
    return t !== undefined && t !== this.table ? t.trimmableBytes : 0;
  }

  /** This solver's tables but the one in use now. */
  private otherTables(): StateTable[] {
    return [this.mainTable, this.shortTable, this.companionTable, this.openTable].filter((t): t is StateTable => t !== undefined && t !== this.table);
  }

  /** Bytes held by the search stack; it counts against the memory budget with the table. */
  private stackBytes(): number {
    return stackBytesOf(this.stack);
  }

  /** Generates the moves of the engine's state into the move stack from `at`, growing it as needed. */
  private generateAt(engine: Engine, at: number, lostRank: number, otherLost: number): number {
    engine.lostRank = lostRank;
    engine.otherClassLost = otherLost === 1;
    // A state has at most a few hundred moves; keep that much headroom. The buffer stops growing
    // near MOVES_KEPT (deeper plies share one list's room), and the ply arrays are checked against
    // the budget where they grow.
    if (at + MOVE_HEADROOM > this.moves.length) {
      this.moves = grow(this.moves);
      this.shareBudget();
    }
    return engine.generate(this.moves, at);
  }

  /** After a deep search, give the big stack back rather than keep it for every later deal. */
  private shrinkStack(): void {
    shrink(this.stack, this.budgetBytes / STACK_KEPT_SHARE);
  }

  private ensurePly(ply: number): void {
    if (ply + 1 < this.start.length) return;
    const stack = this.stack;
    for (const f of PLY_FIELDS) stack[f] = grow(stack[f]);
  }
}

/** Solves one position with a fresh solver. For many deals, reuse a `Solver`. */
export function solve(position: Position, options?: SolveOptions): SolveResult {
  return new Solver(options).solve(position);
}
