import { describe, expect, it } from 'vitest';
import { parseDeck } from '../../src/cards/card';
import { dealFromSeed } from '../../src/rules/deal';
import { formatMove } from '../../src/rules/notation';
import { dealFromDeck } from '../../src/rules/position';
import { resolveRules, type RulesOptions } from '../../src/rules/rules';
import { bruteForce, positionKey } from '../../src/referee/brute-force';
import { replay } from '../../src/referee/referee';
import { expectError, make } from '../helpers';

describe('brute force decides tiny deals that can be checked by hand', () => {
  it('four aces on four piles: won in four moves', () => {
    const rules = resolveRules('canister', { ranks: 1, piles: 4 });
    const p = dealFromDeck(rules, parseDeck('AC AD AH AS', 1));
    const result = bruteForce(p, { maxStates: 100 });
    expect(result.verdict).toBe('winnable');
    expect(result.moves!.map(formatMove)).toEqual(['AC t1 -> f', 'AD t2 -> f', 'AH t3 -> f', 'AS t4 -> f']);
  });

  it('one pile with a 2 on top of its ace: no move at all, unwinnable', () => {
    const rules = resolveRules('canister', { ranks: 2, piles: 1 });
    const p = dealFromDeck(rules, parseDeck('AC 2C AD 2D AH 2H AS 2S', 2));
    expect(bruteForce(p, { maxStates: 100 })).toEqual({ verdict: 'unwinnable', states: 1 });
  });

  // Hearts and spades are up; the 2D blocks AC and the 2C blocks AD; t3 is open.
  const crossed = { foundations: [0, 0, 3, 3], tableau: ['3C AC 2D', '3D AD 2C', ''] };

  it('canister: the 2 goes into the space, then all goes up (7 moves, the fewest possible)', () => {
    const result = bruteForce(make('canister', { rules: { ranks: 3, piles: 3 }, ...crossed }), { maxStates: 10_000 });
    expect(result.verdict).toBe('winnable');
    expect(result.moves).toHaveLength(7);
    expect(formatMove(result.moves![0]!)).toMatch(/^2[CD] t[12] -> t3$/);
  });

  it('american-canister: the same (any card fills a space)', () => {
    expect(bruteForce(make('american-canister', { rules: { ranks: 3, piles: 3 }, ...crossed }), { maxStates: 10_000 }).verdict).toBe('winnable');
  });

  it('british-canister: only a 3 (the highest rank here) fills the space, so nothing can move', () => {
    expect(bruteForce(make('british-canister', { rules: { ranks: 3, piles: 3 }, ...crossed }), { maxStates: 10_000 })).toEqual({ verdict: 'unwinnable', states: 1 });
  });

  // Storehouse, ranks 2 3 A: AH on the only pile needs 3H, which lies under 3D and AD in the reserve.
  const storehouse: RulesOptions = { ranks: 3, reserve: 3, piles: 1, redeals: 0 };

  it('storehouse: AD on the reserve needs a space that AH never gives up: unwinnable', () => {
    const p = make('storehouse', { rules: storehouse, foundations: [1, 1, 1, 1], reserve: '3H 3D AD', tableau: ['AH'], stock: 'AS 3S AC 3C' });
    const result = bruteForce(p, { maxStates: 10_000 });
    expect(result.verdict).toBe('unwinnable');
    expect(result.states).toBeGreaterThan(4);
  });

  it('storehouse: with 3D above AD everything goes up in 12 moves (8 cards and 4 deals)', () => {
    const p = make('storehouse', { rules: storehouse, foundations: [1, 1, 1, 1], reserve: '3H AD 3D', tableau: ['AH'], stock: 'AS 3S AC 3C' });
    const result = bruteForce(p, { maxStates: 10_000 });
    expect(result.verdict).toBe('winnable');
    expect(result.moves).toHaveLength(12);
  });

  it('a won position is winnable with no moves', () => {
    const p = make('canfield', { rules: { ranks: 2, reserve: 1, piles: 1 }, base: 'A', foundations: [2, 2, 2, 2], tableau: [''] });
    expect(bruteForce(p, { maxStates: 1 })).toEqual({ verdict: 'winnable', states: 1, moves: [] });
  });

  it('stops with unknown at maxStates, never with a verdict it has not earned', () => {
    const p = dealFromSeed(resolveRules('canfield'), 1);
    expect(bruteForce(p, { maxStates: 500 })).toEqual({ verdict: 'unknown', states: 500 });
    expectError(() => bruteForce(p, { maxStates: 0 }), 'bad maxStates 0');
  });

  it('keys positions by every pile, and by redeals used only under a redeal limit', () => {
    const limited = dealFromSeed(resolveRules('storehouse'), 1);
    const unlimited = dealFromSeed(resolveRules('canfield'), 1);
    expect(positionKey({ ...limited, redealsUsed: 1 })).not.toBe(positionKey(limited));
    expect(positionKey({ ...unlimited, redealsUsed: 1 })).toBe(positionKey(unlimited));
    const swapped = { ...unlimited, tableau: [unlimited.tableau[1]!, unlimited.tableau[0]!, ...unlimited.tableau.slice(2)] };
    expect(positionKey(swapped)).not.toBe(positionKey(unlimited));
  });

  it('keys positions that differ only in where one part ends apart', () => {
    const p = dealFromSeed(resolveRules('canfield'), 1);
    const [a, b] = p.tableau as [number[], number[]];
    const keys = new Set([
      positionKey(p),
      // The top card of pile 1 moved to the bottom of pile 2, the reserve's top to the stock, the
      // waste's bottom to the stock's top: the same cards in the same order, split otherwise.
      positionKey({ ...p, tableau: [a.slice(0, -1), [a[a.length - 1]!, ...b], ...p.tableau.slice(2)] }),
      positionKey({ ...p, reserve: p.reserve.slice(0, -1), stock: [...p.stock, p.reserve[p.reserve.length - 1]!] }),
      positionKey({ ...p, stock: p.stock.slice(0, -1), waste: [p.stock[p.stock.length - 1]!] }),
      positionKey({ ...p, foundations: [1, 0, 0, 0] }),
      positionKey({ ...p, foundations: [0, 1, 0, 0] }),
      positionKey({ ...p, tableau: [...p.tableau, []] }),
    ]);
    expect(keys.size).toBe(7);
  });
});

describe('brute force on small random deals', () => {
  const LIMIT = 20_000;
  /** Verdicts for deals 0..n-1; every winning line must replay to a won position. */
  function verdicts(game: string, options: RulesOptions, deals: number): string[] {
    const rules = resolveRules(game, options);
    return Array.from({ length: deals }, (_, seed) => {
      const p = dealFromSeed(rules, seed);
      const result = bruteForce(p, { maxStates: LIMIT });
      if (result.verdict === 'winnable') {
        const check = replay(p, result.moves!);
        expect(check.legal && check.won, `${game} deal ${seed}`).toBe(true);
      }
      return result.verdict;
    });
  }

  /** Where the rules of `easier` allow every move sequence of `harder`, a deal winnable under `harder` is winnable under `easier`. */
  function implies(harder: string[], easier: string[]): void {
    harder.forEach((v, i) => {
      if (v === 'winnable' && easier[i] !== 'unknown') expect(easier[i], `deal ${i}`).toBe('winnable');
      if (easier[i] === 'unwinnable' && v !== 'unknown') expect(v, `deal ${i}`).toBe('unwinnable');
    });
  }

  it('british-canister => american-canister => canister (each allows more moves than the one before)', () => {
    const options = { ranks: 3, piles: 3 };
    const british = verdicts('british-canister', options, 15);
    const american = verdicts('american-canister', options, 15);
    const canister = verdicts('canister', options, 15);
    implies(british, american);
    implies(american, canister);
    // Both outcomes occur, so the implications above are not empty.
    expect(new Set(canister)).toEqual(new Set(['winnable', 'unwinnable']));
  });

  it('storehouse with no redeal => with one redeal', () => {
    const once = verdicts('storehouse', { ranks: 3, reserve: 2, piles: 2, redeals: 0 }, 15);
    const twice = verdicts('storehouse', { ranks: 3, reserve: 2, piles: 2, redeals: 1 }, 15);
    implies(once, twice);
    expect(once).toContain('winnable');
  });

  it('canfield with no redeal => canfield with unlimited redeals', () => {
    const strict = verdicts('canfield', { ranks: 3, reserve: 2, piles: 2, redeals: 0 }, 15);
    const loose = verdicts('canfield', { ranks: 3, reserve: 2, piles: 2 }, 15);
    implies(strict, loose);
    expect(strict).toContain('unwinnable');
  });
});
