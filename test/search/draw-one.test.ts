import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { dealFromSeed } from '../../src/rules/deal';
import { resolveRules } from '../../src/rules/rules';
import { Solver } from '../../src/search/solver';
import { StateTable } from '../../src/search/table';
import { bruteForceBoth, checkBruteForce, expectBothVerdicts, replayProblem, solveCommand } from './support';

/**
 * Rule 13 (docs/algorithms.md): the deal dealt one card at a time with unlimited redeals can play
 * every line of the deal dealt three (or two) at a time, or with a redeal limit, so when it is
 * unwinnable, so is the real deal. The solver searches it beside the real search and answers
 * unwinnable when it is proved: by default in canfield-sequences and Hoyle Canfield (a draw of
 * three) and Storehouse (a redeal limit).
 */

const SEED = 13_013;

// The rule itself, with no solver: brute force on both deals. Drawing one must never lose a deal
// that the real draw wins. (Drawing one with no redeal is no such relaxation: put `redeals: 0` in
// the rules given to `bruteForceBoth` below and this fails.)
// Layouts with a reserve as large as the small deck allows, where some deals are lost even drawing one.
const RANKS = [3, 4, 5];
const RESERVES = [4, 6];

describe.each(['canfield-sequences', 'canfield'])('%s: drawing one', (game) => {
  it('wins every small deal that a draw of 2 or 3 with unlimited redeals wins', () => {
    const counts = { both: 0, oneLost: 0, oneOnly: 0 };
    fc.assert(
      fc.property(
        fc.constantFrom(...RANKS),
        fc.constantFrom(1, 2, ...RESERVES),
        fc.constantFrom(2, 3),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (ranks, reserve, draw, seed) => {
          const options = { ranks, reserve, draw, piles: 2 };
          const both = bruteForceBoth(game, options, { draw: 1 }, seed, 20_000);
          if (both === undefined) return;
          counts.both++;
          if (both.other === 'unwinnable') {
            expect(both.real, `${solveCommand(game, options, seed)}: drawing one loses a deal the real draw wins`).toBe('unwinnable');
            counts.oneLost++;
          } else if (both.real === 'unwinnable') counts.oneOnly++;
        },
      ),
      { seed: SEED, numRuns: 100 },
    );
    // Not vacuous: deals decided both ways, some lost even drawing one (what rule 13 proves).
    expect(counts.both).toBeGreaterThan(50);
    expect(counts.oneLost).toBeGreaterThan(0);
  }, 300_000);
});

// Storehouse: lifting the redeal limit (and dealing one at a time) must never lose a deal the real
// game wins. (No redeal at all is no such relaxation: put `redeals: 0` in the rules given
// to `bruteForceBoth` below and this fails.)
describe('storehouse: no redeal limit', () => {
  it('wins every small deal that a redeal limit wins, dealing one or three at a time', () => {
    const counts = { both: 0, freeLost: 0, freeOnly: 0 };
    fc.assert(
      fc.property(
        fc.constantFrom(4, 5),
        fc.constantFrom(2, 4, 6),
        fc.constantFrom(1, 3),
        fc.constantFrom(0, 1, 2),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (ranks, reserve, draw, redeals, seed) => {
          const options = { ranks, reserve, draw, redeals, piles: 2 };
          const both = bruteForceBoth('storehouse', options, { draw: 1, redeals: 'unlimited' }, seed, 20_000);
          if (both === undefined) return;
          counts.both++;
          if (both.other === 'unwinnable') {
            expect(both.real, `${solveCommand('storehouse', options, seed)}: no redeal limit loses a deal the real game wins`).toBe('unwinnable');
            counts.freeLost++;
          } else if (both.real === 'unwinnable') counts.freeOnly++;
        },
      ),
      { seed: SEED, numRuns: 100 },
    );
    // Not vacuous: deals decided both ways, some lost even with no limit (what rule 13 proves), some
    // lost only for the limit.
    expect(counts.both).toBeGreaterThan(50);
    expect(counts.freeLost).toBeGreaterThan(0);
    expect(counts.freeOnly).toBeGreaterThan(0);
  }, 300_000);
});

// The solver with rule 13 on and runs of a few nodes, so that the one-card search runs beside the
// real one from the start, in its own table. Small deals are mostly decided by the real search
// first, so the layouts are the ones where the one-card search proves some deals (a big reserve),
// and each verdict is checked against the real search alone and, where it decides, brute force.
describe.each([
  ['canfield-sequences', 'auto', 3],
  ['canfield', 'auto', 3],
  ['storehouse', 'auto', 3],
] as const)('%s with the one-card search (%s)', (game, setting, minByDrawOne) => {
  it('agrees with the real search alone and with brute force, and its solutions replay', () => {
    const solver = new Solver({ memoryMiB: 32, restartNodes: 3, drawOneProof: setting });
    const alone = new Solver({ memoryMiB: 32, drawOneProof: false });
    const counts = { decided: 0, byDrawOne: 0, winnable: 0, unwinnable: 0 };
    const layouts = fc.constantFrom({ ranks: 5, reserve: 6, piles: 2 }, { ranks: 6, reserve: 8, piles: 2 }, { ranks: 8, reserve: 10, piles: 3 });
    fc.assert(
      fc.property(layouts, fc.integer({ min: 0, max: 2 ** 31 - 1 }), (options, seed) => {
        const start = dealFromSeed(resolveRules(game, options), seed);
        const where = solveCommand(game, options, seed);
        const result = solver.solve(start, { nodeLimit: 2_000_000 });
        if (result.verdict === 'winnable') expect(replayProblem(start, result.moves!), where).toBeUndefined();
        if (result.drawOne?.outcome === 'unwinnable') {
          expect(result.verdict, where).toBe('unwinnable');
          counts.byDrawOne++;
        }
        const real = alone.solve(start, { nodeLimit: 2_000_000 });
        if (real.verdict !== 'unknown' && result.verdict !== 'unknown') expect(result.verdict, `${where} (the real search alone: ${real.verdict})`).toBe(real.verdict);
        checkBruteForce(start, result.verdict, where, counts, 20_000);
      }),
      { seed: SEED, numRuns: 100 },
    );
    expectBothVerdicts(counts, 30);
    if (process.env.DRAW_ONE_STATS) console.log(game, counts);
    expect(counts.byDrawOne).toBeGreaterThanOrEqual(minByDrawOne);
  }, 300_000);
});

describe('which searches the one-card search runs beside', () => {
  const solve = (game: string, options: Record<string, unknown>, drawOneProof?: boolean | 'auto') =>
    new Solver({ restartNodes: 16 }).solve(dealFromSeed(resolveRules(game, options), 597), { nodeLimit: 20_000, drawOneProof });

  it('runs by default where runs or whole piles move (canfield-sequences, Hoyle Canfield), not where single cards move unless asked', () => {
    expect(solve('canfield-sequences', {}).drawOne).toBeDefined();
    expect(solve('canfield', {}).drawOne).toBeDefined();
    expect(solve('canfield-sequences', {}, false).drawOne).toBeUndefined();
    expect(solve('canfield', {}, false).drawOne).toBeUndefined();
    expect(solve('canfield', { move: 'single' }).drawOne).toBeUndefined();
    expect(solve('canfield', { move: 'single' }, true).drawOne).toBeDefined();
  });

  it('runs by default in Storehouse, lifting its redeal limit; not under Wolter\'s space rule unless asked', () => {
    expect(solve('storehouse', {}).drawOne).toBeDefined();
    expect(solve('storehouse', { draw: 3 }).drawOne).toBeDefined();
    expect(solve('storehouse', {}, false).drawOne).toBeUndefined();
    expect(solve('storehouse', { spaces: 'auto-reserve-then-waste' }).drawOne).toBeUndefined();
    expect(solve('storehouse', { spaces: 'auto-reserve-then-waste' }, true).drawOne).toBeDefined();
    // A redeal limit in the games whose runs keep their proofs: only when asked.
    expect(solve('canfield-sequences', { redeals: 2 }).drawOne).toBeUndefined();
    expect(solve('canfield-sequences', { redeals: 2 }, true).drawOne).toBeDefined();
  });

  it('never where it is no relaxation: one card at a time with unlimited redeals already, or cards back from the foundations', () => {
    expect(solve('canfield-sequences', { draw: 1 }, true).drawOne).toBeUndefined();
    expect(solve('storehouse', { redeals: 'unlimited' }, true).drawOne).toBeUndefined();
    expect(solve('canfield-relaxed', {}, true).drawOne).toBeUndefined();
  });

  it.each([
    ['canfield-sequences', 229, 1.5],
    ['storehouse', 904, 20],
  ] as const)('proves %s deal %i unwinnable with a fraction (under 1 / %d) of the real search\'s nodes alone', (game, seed, times) => {
    const start = dealFromSeed(resolveRules(game), seed);
    const alone = new Solver().solve(start, { drawOneProof: false });
    const beside = new Solver().solve(start);
    expect(alone.verdict).toBe('unwinnable');
    expect(beside.verdict).toBe('unwinnable');
    expect(beside.drawOne).toEqual({ nodes: expect.any(Number), outcome: 'unwinnable' });
    expect(beside.nodes).toBeLessThan(alone.nodes / times);
  });

  it('fits its table beside all the real table holds, the arena kept from an earlier deal given back first', () => {
    // The first deal fills the budget, and the real table keeps that arena for the next deal. The
    // one-card search's table counts all the real table holds, so it finds no room until the real
    // table gives back what it does not use (its kept segments): then it proves deal 132 lost, as
    // on a fresh solver, and the two tables never hold more than the budget between them.
    // (Counting only the real table's words in use let the one-card table past the budget.)
    const MiB = 1024 * 1024;
    const solver = new Solver({ memoryMiB: 16 });
    const tables = solver as unknown as { mainTable: StateTable; companionTable?: StateTable };
    expect(solver.solve(dealFromSeed(resolveRules('canfield-sequences'), 597), { drawOneProof: false }).reason).toBe('memory');
    expect(tables.mainTable.heldBytes).toBeGreaterThan(12 * MiB);
    let most = 0;
    let calls = 0;
    const insert = StateTable.prototype.insert;
    const spy = vi.spyOn(StateTable.prototype, 'insert').mockImplementation(function (this: StateTable, ...args: Parameters<StateTable['insert']>) {
      if ((++calls & 255) === 0) most = Math.max(most, tables.mainTable.heldBytes + (tables.companionTable?.heldBytes ?? 0));
      return insert.apply(this, args);
    });
    let next;
    try {
      next = solver.solve(dealFromSeed(resolveRules('canfield-sequences'), 132));
    } finally {
      spy.mockRestore();
    }
    expect(next).toMatchObject({ verdict: 'unwinnable', drawOne: { outcome: 'unwinnable' } });
    // A table counts its arena by the words it uses, and its last 1 MiB segment may be partly
    // empty: a mebibyte of slack a table. Counting only the real table's words in use would let
    // the two hold over 24 MB here.
    expect(most).toBeGreaterThan(MiB);
    expect(most).toBeLessThanOrEqual(18 * MiB);
    // A fresh solver decides it the same way.
    expect(new Solver({ memoryMiB: 16 }).solve(dealFromSeed(resolveRules('canfield-sequences'), 132)).drawOne!.outcome).toBe('unwinnable');
  });

  it("checks for dead states as its game's own search would (rule 6's quick form in Hoyle Canfield), and not when told not to", () => {
    // Hoyle deal 297: the one-card search proves it lost with the check in fewer of its nodes.
    const start = dealFromSeed(resolveRules('canfield'), 297);
    const checked = new Solver().solve(start);
    const unchecked = new Solver().solve(start, { deadCheck: false });
    expect(checked.drawOne?.outcome).toBe('unwinnable');
    expect(unchecked.drawOne?.outcome).toBe('unwinnable');
    expect(checked.drawOne!.nodes).toBeLessThan(unchecked.drawOne!.nodes / 2);
  });

  it('keeps within the node limit and the memory budget, both searches together', () => {
    const start = dealFromSeed(resolveRules('canfield-sequences'), 597);
    const limited = new Solver().solve(start, { nodeLimit: 60_000 });
    expect(limited).toMatchObject({ verdict: 'unknown', reason: 'nodes', nodes: 60_000 });
    expect(limited.drawOne!.outcome).toBe('stopped');
    // A budget too small for the real search: the one-card search shares it, and a verdict it
    // reaches is still unwinnable; otherwise the search stops for memory.
    const small = new Solver({ memoryMiB: 8 }).solve(start);
    if (small.verdict !== 'unwinnable') expect(small).toMatchObject({ verdict: 'unknown', reason: 'memory' });
  });
});
