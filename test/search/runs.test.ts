import { describe, expect, it } from 'vitest';
import { dealFromSeed } from '../../src/rules/deal';
import { resolveRules, type RulesOptions } from '../../src/rules/rules';
import { Engine } from '../../src/search/engine';
import { FIRST_RUN_SHARES, keepsFirstRuns, keepsProofs, LATE_LONG_SHARE, LATE_RUNS, LONG_SHARE, longRunShare, luby, owedWork, ShallowSchedule, shallowPly, TableauSchedule } from '../../src/search/runs';

// canfield-relaxed's run budgets follow the Luby sequence (docs/algorithms.md, "Restarts").
describe('the Luby sequence', () => {
  it('is 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ...', () => {
    expect(Array.from({ length: 15 }, (_, i) => luby(i + 1))).toEqual([1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    // Its first 2^k - 1 terms sum to k * 2^(k-1), and term 2^k - 1 is 2^(k-1).
    for (let k = 1; k <= 12; k++) {
      let sum = 0;
      for (let i = 1; i < 2 ** k; i++) sum += luby(i);
      expect(sum).toBe(k * 2 ** (k - 1));
      expect(luby(2 ** k - 1)).toBe(2 ** (k - 1));
    }
  });
});

// canfield-relaxed's long run (docs/algorithms.md, "The long run"): level with the short runs at first,
// seven times their work once the series has spent 2^13 first runs' budgets (2^25 nodes by default).
describe("canfield-relaxed's long run's share", () => {
  it('is LONG_SHARE, then LATE_LONG_SHARE from LATE_RUNS first runs on', () => {
    expect([LONG_SHARE, LATE_LONG_SHARE, LATE_RUNS]).toEqual([1, 7, 2 ** 13]);
    expect(longRunShare(0, 4096)).toBe(1);
    expect(longRunShare(2 ** 25 - 1, 4096)).toBe(1);
    expect(longRunShare(2 ** 25, 4096)).toBe(7);
    expect(longRunShare(2 ** 19 - 1, 64)).toBe(1);
    expect(longRunShare(2 ** 19, 64)).toBe(7);
  });

  it('owes the long run what brings it to its share', () => {
    expect(owedWork(longRunShare(2 ** 24, 4096), 2 ** 23, 2 ** 23)).toBe(0);
    // Just past the mark: seven times the short runs' work, less its own.
    expect(owedWork(longRunShare(2 ** 25, 4096), 2 ** 24, 2 ** 24)).toBe(6 * 2 ** 24);
  });
});

// Which games' runs keep the states they proved lost (docs/algorithms.md, "Restarts that keep their
// proofs"): only where foundation cards never come back and builds alternate colours, with a stock.
describe('keepsProofs', () => {
  const cases: [string, RulesOptions, boolean][] = [
    ['canfield', {}, true],
    ['canfield-sequences', {}, true],
    ['canfield-sequences', { draw: 1 }, true],
    ['canfield-relaxed', {}, false],
    ['canfield', { foundationToTableau: true }, false],
    ['storehouse', {}, false],
    ['canister', {}, false],
    ['american-canister', {}, false],
    ['british-canister', {}, false],
  ];
  for (const [game, options, keeps] of cases) {
    it(`${keeps ? 'holds' : 'does not hold'} for ${game} ${JSON.stringify(options)}`, () => {
      expect(keepsProofs(new Engine(dealFromSeed(resolveRules(game, options), 1)))).toBe(keeps);
    });
  }
});

// canfield-relaxed's shallow runs (docs/algorithms.md, "Shallow runs") deepen as iterative
// deepening does: the budget doubles while runs at a depth are stopped by it, and the depth goes on
// once a run there runs out of states.
describe('the shallow runs', () => {
  it('are cut at 2, 4, 8, ... times the cards not home', () => {
    const engine = new Engine(dealFromSeed(resolveRules('canfield-relaxed'), 1));
    let left = 0;
    for (let s = 0; s < 4; s++) left += 13 - engine.found[s]!;
    expect(left).toBe(51);
    expect([1, 2, 3].map((level) => shallowPly(engine, level))).toEqual([102, 204, 408]);
  });

  it('double their budget at a depth until a run there runs out of states, then deepen with it', () => {
    const s = new ShallowSchedule();
    const seen: [number, number][] = [];
    const run = (stoppedByBudget: boolean) => {
      seen.push([s.level, s.nextBudget(4096)]);
      s.ended(stoppedByBudget);
    };
    run(true);
    run(true);
    run(false);
    run(true);
    run(false);
    run(false);
    seen.push([s.level, s.nextBudget(4096)]);
    expect(seen).toEqual([
      [1, 4096],
      [1, 8192],
      [1, 16384],
      [2, 16384],
      [2, 32768],
      [3, 32768],
      [4, 32768],
    ]);
  });
});

// The tableau-only games' runs (docs/algorithms.md, "Restarts"): budgets double from the first run's
// and every other run is best-first. In Canister (any suit) runs 0 and 1 go on where they stopped,
// each whenever its work falls below its share of the restarts' work.
describe('the tableau-only runs', () => {
  it('keep their first two runs in Canister only', () => {
    const keeps = (game: string) => keepsFirstRuns(new Engine(dealFromSeed(resolveRules(game), 1)));
    expect(['canister', 'american-canister', 'british-canister', 'canfield-relaxed'].map(keeps)).toEqual([true, false, false, false]);
  });

  it('double from the first run, each run from scratch, where the first two are not kept', () => {
    const s = new TableauSchedule(4, false);
    expect(Array.from({ length: 5 }, (_, run) => s.next(run))).toEqual([0, 1, 2, 3, 4].map((step) => ({ step, resume: false, budget: 4 * 2 ** step })));
  });

  it('give the first two runs their shares of the restarts where they are kept', () => {
    expect(FIRST_RUN_SHARES).toEqual([1 / 4, 2]);
    const s = new TableauSchedule(4, true);
    const seen = Array.from({ length: 10 }, (_, run) => s.next(run));
    expect(seen.map((t) => [t.step, t.resume, t.budget])).toEqual([
      [0, false, 4],
      [1, false, 8],
      // Restart 2 (16 nodes): run 0 has its quarter (4), run 1 is owed 2 * 16 - 8.
      [2, false, 16],
      [1, true, 24],
      [3, false, 32],
      [0, true, 8],
      [1, true, 64],
      [4, false, 64],
      [0, true, 16],
      [1, true, 128],
    ]);
    // The work of each of the first two runs is its share of the restarts' (16 + 32 + 64).
    const work = (step: number) => seen.filter((t) => t.step === step).reduce((sum, t) => sum + t.budget, 0);
    expect([work(0), work(1)]).toEqual([112 / 4, 112 * 2]);
  });

  it('never give a dropped first run more, and give a restart again when asked', () => {
    const s = new TableauSchedule(4, true);
    const first = [0, 1, 2, 3].map((run) => s.next(run));
    expect(first.map((t) => [t.step, t.resume, t.budget])).toEqual([
      [0, false, 4],
      [1, false, 8],
      [2, false, 16],
      [1, true, 24],
    ]);
    expect([s.keeps(0), s.keeps(1)]).toEqual([true, true]);
    // Run 1 filled the memory: it is dropped, and the schedule goes on as if it were not kept.
    s.drop(1);
    expect([s.keeps(0), s.keeps(1)]).toEqual([true, false]);
    const restart3 = s.next(4);
    expect([restart3.step, restart3.resume, restart3.budget]).toEqual([3, false, 32]);
    // Restart 3 filled the memory beside run 0: run 0 is dropped and restart 3 goes again, once.
    s.drop(0);
    s.again(restart3);
    const later = [5, 6, 7].map((run) => s.next(run));
    expect(later.map((t) => [t.step, t.resume, t.budget])).toEqual([
      [3, false, 32],
      [4, false, 64],
      [5, false, 128],
    ]);
    expect([s.keeps(0), s.keeps(1)]).toEqual([false, false]);
  });

  it('keep no first run where the first runs are not kept', () => {
    expect(new TableauSchedule(4, false).keeps(0)).toBe(false);
    expect(new TableauSchedule(4, false).keeps(1)).toBe(false);
  });
});
