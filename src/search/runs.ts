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
