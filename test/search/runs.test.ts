import { describe, expect, it } from 'vitest';
import { dealFromSeed } from '../../src/rules/deal';
import { resolveRules, type RulesOptions } from '../../src/rules/rules';
import { Engine } from '../../src/search/engine';
import { keepsProofs, luby, ShallowSchedule, shallowPly } from '../../src/search/runs';

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
