import { describe, expect, it } from 'vitest';
import { dealFromSeed } from '../../src/rules/deal';
import type { Move } from '../../src/rules/move';
import type { Position } from '../../src/rules/position';
import { resolveRules, type RulesOptions } from '../../src/rules/rules';
import { bruteForce, positionKey } from '../../src/referee/brute-force';
import { applyMove, legalMoves, replay } from '../../src/referee/referee';
import { shortenSolution } from '../../src/referee/shorten';
import { Solver } from '../../src/search/solver';

/** The solver's winning lines for the first deals of a game that it wins within a small budget. */
function solved(game: string, options: RulesOptions, seeds: number, nodeLimit: number): { position: Position; moves: Move[] }[] {
  const rules = resolveRules(game, options);
  const solver = new Solver();
  const out: { position: Position; moves: Move[] }[] = [];
  for (let seed = 1; seed <= seeds; seed++) {
    const position = dealFromSeed(rules, seed);
    const result = solver.solve(position, { nodeLimit });
    if (result.verdict === 'winnable') out.push({ position, moves: result.moves! });
  }
  return out;
}

describe('shortenSolution', () => {
  it('gives lines that still win, never longer, and much shorter where the search wanders (canfield-relaxed)', () => {
    for (const game of ['canfield-relaxed', 'canfield-sequences', 'canister', 'storehouse']) {
      let before = 0;
      let after = 0;
      for (const { position, moves } of solved(game, {}, 8, 200_000)) {
        const short = shortenSolution(position, moves);
        expect(replay(position, short).won, `${game}: the shorter line wins`).toBe(true);
        expect(short.length).toBeLessThanOrEqual(moves.length);
        before += moves.length;
        after += short.length;
      }
      expect(before, `${game}: some deal won`).toBeGreaterThan(0);
      // Foundation cards come back in canfield-relaxed, and its depth-first lines wander.
      if (game === 'canfield-relaxed') expect(after).toBeLessThan(0.8 * before);
    }
  });

  it('cuts out a detour put into a line: a move and the move that undoes it', () => {
    const [{ position, moves }] = solved('canister', {}, 3, 200_000);
    // The first place on the line with a move that a second move undoes.
    let line = position;
    for (let i = 0; i < moves.length; i++) {
      for (const there of legalMoves(line)) {
        const after = applyMove(line, there);
        const back = legalMoves(after).find((m) => positionKey(applyMove(after, m)) === positionKey(line));
        if (!back) continue;
        const detour = [...moves.slice(0, i), there, back, ...moves.slice(i)];
        expect(replay(position, detour).won).toBe(true);
        const short = shortenSolution(position, detour);
        expect(replay(position, short).won).toBe(true);
        expect(short.length).toBeLessThanOrEqual(moves.length);
        return;
      }
      line = applyMove(line, moves[i]!);
    }
    throw new Error('no reversible move on the line');
  });

  it('keeps a shortest line (brute force) as long as it is, on small decks', () => {
    let lines = 0;
    for (const [game, options] of [
      ['canfield', { ranks: 3, reserve: 2, piles: 3 }],
      ['canfield-sequences', { ranks: 3, reserve: 2, piles: 3 }],
    ] as const) {
      const rules = resolveRules(game, options);
      for (let seed = 1; seed <= 10; seed++) {
        const position = dealFromSeed(rules, seed);
        const best = bruteForce(position, { maxStates: 20_000 });
        if (best.verdict !== 'winnable') continue;
        lines++;
        const short = shortenSolution(position, best.moves!);
        expect(short.length).toBe(best.moves!.length);
        expect(replay(position, short).won).toBe(true);
        // And the solver's own line, shortened, is no shorter than the shortest there is.
        const found = new Solver().solve(position, { nodeLimit: 100_000 });
        expect(found.verdict).toBe('winnable');
        const mine = shortenSolution(position, found.moves!);
        expect(replay(position, mine).won).toBe(true);
        expect(mine.length).toBeGreaterThanOrEqual(best.moves!.length);
      }
    }
    expect(lines).toBeGreaterThan(5);
  });
});
