import { describe, expect, it } from 'vitest';
import { dealFromSeed } from '../../src/rules/deal';
import { resolveRules, type RulesOptions } from '../../src/rules/rules';
import { Engine } from '../../src/search/engine';
import { keepsProofs, luby } from '../../src/search/runs';

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
