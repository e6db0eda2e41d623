import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dealFromSeed } from '../../src/rules/deal';
import type { Move } from '../../src/rules/move';
import { parsePosition, type Position } from '../../src/rules/position';
import { resolveRules, type RulesOptions } from '../../src/rules/rules';
import { bruteForce } from '../../src/referee/brute-force';
import { SearchClock } from '../../src/search/clock';
import { Engine } from '../../src/search/engine';
import { OpenList } from '../../src/search/open-list';
import { LATE_RUNS } from '../../src/search/runs';
import { NO_DEAD_CHECK, Solver } from '../../src/search/solver';
import { PENDING, PROVEN, type StateTable } from '../../src/search/table';
import { checkBruteForce, readPositionFixture, replayProblem, solveCommand } from './support';

/**
 * The restarted search of the tableau-only games, canfield-relaxed, and (keeping what each run
 * proved) canfield-sequences and Hoyle Canfield (docs/algorithms.md, "Restarts" and "Best-first
 * runs"): with a first run of a node or a few, almost every small deal is decided by a later run,
 * depth-first with a shuffled move order or best-first, and the verdict must still be brute force's, every
 * solution (traced back through the best-first parents) must replay to a win, and the node limit
 * must hold over the whole series.
 */

const SEED = 77_001;

/** Layouts of a small deal (rules options) and the brute-force state cap for each. */
type Small = { options: RulesOptions; maxStates: number };

/**
 * Solves small deals of `game` with a first run of `restartNodes` nodes, checks each against brute force and
 * replays each solution; at least `minDecided` of the cases must be decided by brute force.
 */
function agreesWhenRestarted(game: string, small: fc.Arbitrary<Small>, numRuns: number, minDecided: number, restartNodes = 1): void {
  const solver = new Solver({ memoryMiB: 32, restartNodes });
  const counts = { cases: 0, decided: 0, restarted: 0, winnable: 0, unwinnable: 0 };
  fc.assert(
    fc.property(small, fc.integer({ min: 0, max: 2 ** 31 - 1 }), ({ options, maxStates }, seed) => {
      const start = dealFromSeed(resolveRules(game, options), seed);
      const where = solveCommand(game, options, seed);
      const result = solver.solve(start, { nodeLimit: 2_000_000 });
      expect(result.nodes, where).toBeLessThanOrEqual(2_000_000);
      if (result.verdict === 'winnable') expect(replayProblem(start, result.moves!), where).toBeUndefined();
      counts.cases++;
      if (result.nodes > restartNodes) counts.restarted++;
      checkBruteForce(start, result.verdict, where, counts, maxStates);
    }),
    { seed: SEED, numRuns },
  );
  expect(counts.decided / counts.cases).toBeGreaterThanOrEqual(minDecided);
  expect(counts.restarted / counts.cases).toBeGreaterThanOrEqual(0.5);
  expect(counts.winnable).toBeGreaterThan(0);
  expect(counts.unwinnable).toBeGreaterThan(0);
}

describe.each(['canister', 'american-canister', 'british-canister'])('%s, restarted from one node', (game) => {
  it('agrees with brute force and its solutions replay', () => {
    const small = fc
      .record({ ranks: fc.constantFrom(3, 4, 5), piles: fc.constantFrom(3, 4) })
      .map((options) => ({ options, maxStates: options.piles === 3 ? 20_000 : 2_000 }));
    agreesWhenRestarted(game, small, 150, 0.5);
  }, 300_000);

  it('stops at the node limit over all runs', () => {
    const start = dealFromSeed(resolveRules(game), 15);
    const result = new Solver({ restartNodes: 1000 }).solve(start, { nodeLimit: 50_000 });
    if (result.verdict === 'unknown') {
      expect(result.reason).toBe('nodes');
      expect(result.nodes).toBe(50_000);
    } else expect(result.nodes).toBeLessThanOrEqual(50_000);
  });
});

// canfield-relaxed restarts too, every run depth-first (its keys need the table's rank).
describe('canfield-relaxed, restarted from one node', () => {
  it('agrees with brute force and its solutions replay', () => {
    const small = fc
      .record({ ranks: fc.constantFrom(3, 4), reserve: fc.constantFrom(1, 2, 3) })
      .map(({ ranks, reserve }) => ({ options: { ranks, reserve, piles: 2, redeals: 0 }, maxStates: 20_000 }));
    agreesWhenRestarted('canfield-relaxed', small, 60, 0.3);
  }, 300_000);
});

// canfield-relaxed's first run is its long one (docs/algorithms.md, "Restarts"): stopped by its
// budget, it waits in its own table while short runs search from scratch in theirs, and goes on where
// it stopped. So a loss, which a run must search to the end, costs one run and as much again for the
// short runs beside it (LONG_SHARE), not a run of every budget as it doubles (4.7-6.8 times one run
// on these deals when each long run started afresh). The shallow runs add their share of the short
// runs' work (SHALLOW_SHARE): 2.06-2.19 times one run without them, 2.10-2.22 with them at 1/32
// (session 58), 2.17-2.29 at 1/16 with budgets that double (session 59). Once the series has spent
// LATE_RUNS first runs' budgets (2^17 nodes with runs from 16), the long run gets seven times the
// short runs' work (LATE_LONG_SHARE), so a loss that needs a far longer run costs about 8/7 of it
// (session 67).
describe('canfield-relaxed, the long run', () => {
  const options = { ranks: 10, reserve: 10, piles: 2 };
  // A lost deal searched in one run and in the series from runs of `restartNodes`: the nodes of each.
  const lostBothWays = (seed: number, restartNodes: number) => {
    const start = dealFromSeed(resolveRules('canfield-relaxed', options), seed);
    const where = solveCommand('canfield-relaxed', options, seed);
    const one = new Solver({ restartNodes: Infinity }).solve(start);
    const runs = new Solver({ restartNodes }).solve(start);
    expect(one.verdict, where).toBe('unwinnable');
    expect(runs.verdict, where).toBe('unwinnable');
    return { where, one: one.nodes, runs: runs.nodes };
  };

  it('goes on where it stopped: a loss costs about twice one run', () => {
    for (const seed of [2, 4, 8]) {
      const { where, one, runs } = lostBothWays(seed, 64);
      expect(runs, where).toBeGreaterThan(1.9 * one);
      expect(runs, where).toBeLessThan(2.4 * one);
    }
  });

  it('takes seven eighths of the work late in the series: a long loss costs about 8/7 of one run', () => {
    const { where, one, runs } = lostBothWays(6, 16);
    expect(one, where).toBeGreaterThan(8 * 16 * LATE_RUNS);
    // Level with the short runs throughout, the series took 2.12 times one run (runs from 64); with
    // three times their work late, 1.37.
    expect(runs, where).toBeGreaterThan(1.1 * one);
    expect(runs, where).toBeLessThan(1.3 * one);
  });
});

// Canister's best-first run goes on where it stopped (docs/algorithms.md, "Restarts": "Canister's
// first two runs go on"): stopped every 97 nodes and gone on from its open list, it makes the
// same search as in one go, to the same verdict and the same win, each stop counting the move it
// stopped at twice.
describe('canister, the best-first run in slices', () => {
  type BestFirst = (engine: Engine, position: Position, nodes: number, cap: number, clock: SearchClock, open?: OpenList) => { outcome: string; nodes: number };
  const searcher = () => {
    const solver = new Solver({ memoryMiB: 64 }) as unknown as { budgetBytes: number; bestFirst: BestFirst; won?: Move[] };
    solver.budgetBytes = 64 << 20;
    return solver;
  };
  const options = { ranks: 8, piles: 5 };
  it.each([
    [2, 'unwinnable'],
    [5, 'winnable'],
    [19, 'unwinnable'],
    [20, 'winnable'],
  ])('deal %i: the same search, %s', (seed, verdict) => {
    const p = dealFromSeed(resolveRules('canister', options), seed);
    const whole = searcher();
    const once = whole.bestFirst(new Engine(p, 1), p, 0, Infinity, new SearchClock(Infinity));
    const sliced = searcher();
    const open = new OpenList();
    const engine = new Engine(p, 1);
    let r = { outcome: 'nodes', nodes: 0 };
    let stops = 0;
    for (; r.outcome === 'nodes'; stops++) r = sliced.bestFirst(engine, p, r.nodes, r.nodes + 97, new SearchClock(Infinity), open);
    expect(once.outcome).toBe(verdict);
    expect(r.outcome).toBe(verdict);
    expect(stops - 1, 'stopped many times').toBeGreaterThan(40);
    expect(r.nodes).toBe(once.nodes + stops - 1);
    expect(sliced.won).toEqual(whole.won);
    if (verdict === 'winnable') expect(replayProblem(p, sliced.won!)).toBeUndefined();
  });
});

// Shallow runs (docs/algorithms.md, "Shallow runs"): a short run that leaves the states at its
// depth unsearched has searched only part of the space, so when it runs out of states it must end
// as if stopped by its budget, never as a proof of loss. Run directly, on a position won in 14
// moves (session 58's soak) that no run of 4 plies can win.
describe('canfield-relaxed, a shallow run', () => {
  const p = parsePosition(readPositionFixture('canfield-variant-short-win-deep-runs.json'));
  type ShortRun = (engine: Engine, position: Position, nodes: number, cap: number, clock: SearchClock, dead: object, maxPly: number, best: boolean) => { outcome: string; nodes: number };
  const shallow = (maxPly: number) => {
    const solver = new Solver({ memoryMiB: 16 }) as unknown as { budgetBytes: number; shortRun: ShortRun };
    solver.budgetBytes = 16 << 20;
    return solver.shortRun(new Engine(p, 1), p, 0, 1_000_000, new SearchClock(Infinity), NO_DEAD_CHECK, maxPly, false);
  };
  it('cut off before the win: runs out of states, and proves nothing', () => {
    const run = shallow(4);
    expect(run.nodes, 'the cut space is searched to its end, well within the budget').toBeLessThan(1_000_000);
    expect(run.outcome).toBe('nodes');
  });
  it('deep enough for the win: meets it', () => {
    expect(shallow(16).outcome).toBe('winnable');
  });
});

// The other games with a stock restart too, and keep the states each run proved lost
// (docs/algorithms.md, "Restarts that keep their proofs"). Runs of a few nodes stop nearly every run
// with states on the path, pending and proven ones in the table, so every later run leans on what
// the earlier ones kept. Spaces refilled from the waste or the tableau once the reserve is out make
// cycles (a run into a space and back), whose states must not be kept as proven.
describe.each([
  ['canfield-sequences', [0, 1, 2, 3]],
  ['canfield', [1, 2, 3]],
] as const)('%s, restarted from a few nodes, keeping its proofs', (game, reserves) => {
  it('agrees with brute force and its solutions replay', () => {
    const small = fc
      .record({ ranks: fc.constantFrom(3, 4), reserve: fc.constantFrom(...reserves), draw: fc.constantFrom(1, 3) })
      .map(({ ranks, reserve, draw }) => ({ options: { ranks, reserve, draw, piles: 2 }, maxStates: 20_000 }));
    agreesWhenRestarted(game, small, 80, 0.5, 3);
  }, 300_000);
});

/**
 * Every state the table holds: each entry, or under split dominance each lane of each entry that
 * holds a rank (one entry keeps a state at every split class, docs/algorithms.md).
 */
function* entries(table: StateTable, engine: Engine): Generator<{ off: number; lane: number }> {
  for (const off of table.offsets()) {
    if (!engine.talon.splitDominance) yield { off, lane: -1 };
    else for (let lane = 0; lane < 4; lane++) if ((table.lanesAt(off) >> lane) & 1) yield { off, lane };
  }
}

// What a run keeps must be lost: stop the series after a few hundred nodes, in the middle of a run,
// and brute-force states the table holds as PROVEN. A state whose search leaned on a state still
// open (a cycle through the path: in canfield-sequences a run moved into a space and back) must not
// be among them, as it can be won through that state; such states are PENDING, and
// canfield-sequences must meet some, so that the case is tried (marking them PROVEN fails here).
describe.each([
  ['canfield-sequences', true],
  ['canfield', false],
] as const)('%s: the states a run keeps', (game, cycles) => {
  it('are lost, each one checked by brute force', () => {
    const counts = { checked: 0, pending: 0 };
    fc.assert(
      fc.property(
        fc.constantFrom(0, 1, 2),
        fc.constantFrom(1, 3),
        fc.constantFrom(200, 1000, 4000),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (reserve, draw, nodeLimit, seed) => {
          const options = { ranks: 7, reserve, draw, piles: 3 };
          const start = dealFromSeed(resolveRules(game, options), seed);
          const where = `${solveCommand(game, options, seed)} (node limit ${nodeLimit})`;
          const solver = new Solver({ memoryMiB: 16, restartNodes: 2 });
          solver.solve(start, { nodeLimit });
          const table = (solver as unknown as { table: StateTable }).table;
          const engine = new Engine(start);
          const key = new Uint32Array(64);
          let checked = 0;
          for (const { off, lane } of entries(table, engine)) {
            const status = table.statusAt(off, lane);
            if (status === PENDING) counts.pending++;
            if (status !== PROVEN || checked >= 25) continue;
            const state = engine.decode(key, table.keyAt(off, key), table.rankAt(off, lane));
            const brute = bruteForce(state, { maxStates: 5_000 });
            expect(brute.verdict, `${where}: a kept state can be won`).not.toBe('winnable');
            if (brute.verdict === 'unwinnable') checked++;
          }
          counts.checked += checked;
        },
      ),
      { seed: SEED, numRuns: 100 },
    );
    expect(counts.checked).toBeGreaterThan(100);
    if (cycles) expect(counts.pending).toBeGreaterThan(0);
  }, 300_000);
});

// A state can lean on an open state of the path through a move other than the way straight back
// (here, after a twin swap or through a longer cycle): `leanOn` must count such a hit. Small random
// deals nearly never show it on its own (the state leans on its parent through the skipped move
// back as well), so this deal, found by a scan of seeds 1-400 with that hit ignored, is kept: ignoring
// it marks two states of this table PROVEN that brute force wins (after some 53,000 positions).
describe('canfield-sequences: a state that leans on the path through a longer cycle', () => {
  it('is not kept as lost', () => {
    const options = { ranks: 7, reserve: 1, draw: 3 as const, piles: 3 };
    const start = dealFromSeed(resolveRules('canfield-sequences', options), 85);
    const solver = new Solver({ memoryMiB: 16, restartNodes: 2 });
    solver.solve(start, { nodeLimit: 1000 });
    const table = (solver as unknown as { table: StateTable }).table;
    const engine = new Engine(start);
    const key = new Uint32Array(64);
    let proven = 0;
    for (const { off, lane } of entries(table, engine)) {
      if (table.statusAt(off, lane) !== PROVEN) continue;
      proven++;
      const state = engine.decode(key, table.keyAt(off, key), table.rankAt(off, lane));
      const brute = bruteForce(state, { maxStates: 100_000 });
      expect(brute.verdict, `${solveCommand('canfield-sequences', options, 85)}: a kept state can be won`).toBe('unwinnable');
    }
    expect(proven).toBeGreaterThan(0);
  }, 60_000);
});
