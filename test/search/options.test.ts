import { describe, expect, it } from 'vitest';
import { dealFromSeed } from '../../src/rules/deal';
import { resolveRules } from '../../src/rules/rules';
import { solve, Solver } from '../../src/search/solver';
import type { SolveOptions } from '../../src/search/types';
import { expectError } from '../helpers';

const deal = dealFromSeed(resolveRules('british-canister'), 1);

describe('solve options from a library caller', () => {
  it('refuses a bad limit, switch or callback with a one-line error naming the option', () => {
    const bad: [SolveOptions, string][] = [
      [{ memoryMiB: Number.NaN }, 'bad memoryMiB NaN'],
      [{ memoryMiB: 0 }, 'bad memoryMiB 0'],
      [{ memoryMiB: Infinity }, 'bad memoryMiB Infinity'],
      [{ nodeLimit: -5 }, 'bad nodeLimit -5'],
      [{ nodeLimit: 2.5 }, 'bad nodeLimit 2.5: expected a whole number from 1 to 2^53-1, or Infinity for none'],
      [{ timeLimitMs: 0 }, 'bad timeLimitMs 0'],
      [{ timeLimitMs: '100' as unknown as number }, 'bad timeLimitMs "100"'],
      [{ restartNodes: 0 }, 'bad restartNodes 0'],
      [{ deadCheck: 'yes' as unknown as boolean }, `bad deadCheck "yes": expected true, false or 'auto'`],
      [{ drawOneProof: 1 as unknown as boolean }, 'bad drawOneProof 1'],
      [{ stricterGame: null as unknown as boolean }, 'bad stricterGame null'],
      [{ onProgress: 'log' as unknown as () => void }, 'bad onProgress'],
    ];
    for (const [options, message] of bad) {
      expectError(() => solve(deal, options), message);
      expectError(() => new Solver().solve(deal, options), message);
    }
    expectError(() => new Solver({ memoryMiB: -1 }), 'bad memoryMiB -1');
  });

  it('runs with every good form: limits above 0 or Infinity, switches true, false or auto', () => {
    const good: SolveOptions[] = [
      {},
      { nodeLimit: Infinity, timeLimitMs: Infinity },
      { nodeLimit: 1_000_000, timeLimitMs: 5_000, memoryMiB: 16.5, restartNodes: 64 },
      { deadCheck: true, drawOneProof: false, stricterGame: 'auto', onProgress: () => undefined },
    ];
    for (const options of good) expect(solve(deal, options).verdict).toBe('unwinnable');
  });
});
