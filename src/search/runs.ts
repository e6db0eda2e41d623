import type { Engine } from './engine';

// How a search is split into runs (docs/algorithms.md, "The search": the two "Restarts" paragraphs):
// the node budgets, the depths and budgets of the shallow runs, and which games' runs keep the states they proved lost.

/** Node budget of the first run in the tableau-only games; each run doubles it. */
export const RUN_NODES = 1 << 16;
/** The unit of the Luby budgets of the games with a stock, whose wins come sooner with more, shorter runs (docs/algorithms.md). */
export const RUN_NODES_WITH_TALON = 1 << 12;
/**
 * The first slice of a search that is one run but goes in slices, so that rule 13's relaxed search
 * can run beside it (Storehouse); each slice doubles. A slice goes on where the last stopped, so
 * the size only decides how soon the relaxed search starts. Measured on Storehouse deals 1-1,000
 * (docs/algorithms.md, rule 13): 4,096 nodes 2.5 ms a deal, 1,024 1.9, 256 1.8, 128 1.9.
 */
export const SLICE_NODES = 1 << 8;
/**
 * Whether the restarts keep the states each run proved lost (docs/algorithms.md, "Restarts that
 * keep their proofs"): the games with a stock that build in alternating colours and whose
 * foundation cards never come back (canfield-sequences, Hoyle Canfield). Measured: wins come far
 * sooner there; Storehouse's deals are small and lost ones, and restarts cost it a third more nodes.
 */
export function keepsProofs(engine: Engine): boolean {
  return !engine.ordered && engine.talon.length > 0 && engine.rules.build === 'alternate-colors';
}

/**
 * The shares of the restarts' work that Canister's first two runs, which go on where they stopped,
 * are given: the depth-first run in the plain order and the best-first run (docs/algorithms.md,
 * "Restarts": "Canister's first two runs go on").
 */
export const FIRST_RUN_SHARES: readonly [number, number] = [1 / 4, 2];

/**
 * Whether a tableau-only game's first two runs go on where they stopped, beside the restarts
 * (`TableauSchedule`): Canister, building regardless of suit. Measured (docs/algorithms.md): its
 * deals 159 and 968 are won by those two runs, far sooner than by any restart; the games in
 * alternating colours gain nothing (american-canister 1-1,000: one deal differs, 7% more nodes).
 */
export function keepsFirstRuns(engine: Engine): boolean {
  return engine.tableauOnly && engine.rules.build === 'any-suit';
}

/** One run of a tableau-only game: its number (its move order; best-first when odd), whether it goes on where it stopped, its budget. */
export interface TableauRun {
  step: number;
  resume: boolean;
  budget: number;
}

/**
 * The runs of the tableau-only games (docs/algorithms.md, "Restarts"): run k has 2^k times the
 * first run's budget and is best-first when k is odd, depth-first otherwise, each from scratch.
 * Where the first two runs go on (`keepsFirstRuns`), runs 0 and 1 are not searched again: after
 * their first budgets, each goes on whenever its work falls below its share
 * (`FIRST_RUN_SHARES`) of the work of runs 2, 3, ..., which go from scratch as before. When memory
 * runs out, a first run is dropped (`drop`): it never goes on again, and a restart that filled the
 * memory beside it goes again (`again`) with the memory the first runs held.
 */
export class TableauSchedule {
  private readonly firstWork = [0, 0];
  private readonly dropped = [false, false];
  private restarts = 0;
  private restartWork = 0;
  private repeat: TableauRun | undefined;

  constructor(
    private readonly firstRun: number,
    readonly keepsFirst: boolean,
  ) {}

  /** The run after `run` runs (from 0). */
  next(run: number): TableauRun {
    if (!this.keepsFirst) return { step: run, resume: false, budget: this.firstRun * 2 ** run };
    if (this.repeat) {
      const again = this.repeat;
      this.repeat = undefined;
      return again;
    }
    if (run < 2) {
      const budget = this.firstRun * 2 ** run;
      this.firstWork[run] = budget;
      return { step: run, resume: false, budget };
    }
    for (const step of [0, 1]) {
      if (this.dropped[step]) continue;
      const owed = owedWork(FIRST_RUN_SHARES[step]!, this.restartWork, this.firstWork[step]!);
      if (owed > 0) {
        this.firstWork[step]! += owed;
        return { step, resume: true, budget: owed };
      }
    }
    const step = 2 + this.restarts++;
    const budget = this.firstRun * 2 ** step;
    this.restartWork += budget;
    return { step, resume: false, budget };
  }

  /** Whether first run `step` (0 or 1) still goes on: kept, and not dropped. */
  keeps(step: number): boolean {
    return this.keepsFirst && !this.dropped[step];
  }

  /** Drops first run `step` (0 or 1): it never goes on again. */
  drop(step: number): void {
    this.dropped[step] = true;
  }

  /** Makes `run`, a restart stopped by the memory the first runs held, the next run again, from scratch. */
  again(run: TableauRun): void {
    this.repeat = { step: run.step, resume: false, budget: run.budget };
  }
}

/**
 * The nodes a run that goes on where it stopped (a long run) is owed before the short runs go on:
 * its `share` of their work `shortWork`, less its own work so far; 0 or less when it has had its share.
 */
export function owedWork(share: number, shortWork: number, ownWork: number): number {
  return Math.ceil(share * shortWork - ownWork);
}

/** canfield-relaxed: the long run goes on whenever its work is less than this share of the short runs'. */
export const LONG_SHARE = 1;
/** canfield-relaxed: the long run's share once the series has spent LATE_RUNS first runs' budgets (`longRunShare`). */
export const LATE_LONG_SHARE = 7;
/** How many first runs' budgets the series spends before the long run's share rises: 2^25 nodes by default. */
export const LATE_RUNS = 1 << 13;

/**
 * canfield-relaxed's long run: its share of the short runs' work, given the work of the whole
 * series so far (the long and the short runs) and the first run's budget: LONG_SHARE at first,
 * LATE_LONG_SHARE once the series has spent LATE_RUNS first runs' budgets (2^25 nodes by default,
 * beyond what the bench's 10 s reach; docs/algorithms.md, "Late in the series the long run gets
 * more"). The short runs' wins come early; that late, the wins measured were the long run's, and a
 * loss is proved only by the long run, searched to its end.
 */
export function longRunShare(seriesWork: number, firstRun: number): number {
  return seriesWork < firstRun * LATE_RUNS ? LONG_SHARE : LATE_LONG_SHARE;
}

/**
 * The i-th term (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ...: the
 * restart schedule that is within a log factor of the best fixed budget for any run-time
 * distribution (Luby, Sinclair and Zuckerman, 1993).
 */
export function luby(i: number): number {
  for (;;) {
    let k = 1;
    while (2 ** k - 1 < i) k++;
    if (2 ** k - 1 === i) return 2 ** (k - 1);
    i -= 2 ** (k - 1) - 1;
  }
}

/**
 * The ply at which canfield-relaxed's shallow runs of depth level `level` (from 1) leave their
 * states unsearched: 2, 4, 8, ... times the cards not home at the start (docs/algorithms.md,
 * "Shallow runs").
 */
export function shallowPly(engine: Engine, level: number): number {
  let left = 0;
  for (let s = 0; s < 4; s++) left += engine.ranks - engine.found[s]!;
  return Math.max(1, left) * 2 ** level;
}

/**
 * The depths and budgets of canfield-relaxed's shallow runs, which deepen as iterative deepening
 * does (docs/algorithms.md, "Shallow runs"): the first is cut at the first level with the first
 * run's budget; a run stopped by its budget goes again at the same level with twice the budget, and
 * a run that ran out of states within its depth (no win there, as far as it looked) hands on to the
 * next level with the budget it had.
 */
export class ShallowSchedule {
  level = 1;
  /** The shallow runs started so far, and the nodes given them in all. */
  count = 0;
  work = 0;
  private budget = 0;

  /** The node budget of the next shallow run, given the first run's; counts that run and its budget. */
  nextBudget(firstRun: number): number {
    if (this.budget === 0) this.budget = firstRun;
    this.count++;
    this.work += this.budget;
    return this.budget;
  }

  /** After a shallow run that proved nothing: stopped by its budget, or out of states within its depth. */
  ended(stoppedByBudget: boolean): void {
    if (stoppedByBudget) this.budget *= 2;
    else this.level++;
  }
}
