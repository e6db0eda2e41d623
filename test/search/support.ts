import { formatCards } from '../../src/cards/card';
import type { Move } from '../../src/rules/move';
import { formatMove } from '../../src/rules/notation';
import { formatPosition, type Position } from '../../src/rules/position';
import type { RulesOptions } from '../../src/rules/rules';
import { positionKey } from '../../src/referee/brute-force';
import { applyMove, legalMoves, replay } from '../../src/referee/referee';

/** Shared helpers of the solver's tests (test/search/*.test.ts). */

export { mulberry } from '../helpers';

/**
 * Positions met along a random referee playout of up to `steps` moves from `start` (the start
 * included), every one a legal position of the game. The playout stops early when no move is left.
 */
export function playout(start: Position, steps: number, rng: () => number): Position[] {
  const seen = [start];
  let p = start;
  for (let i = 0; i < steps; i++) {
    const moves = legalMoves(p);
    if (moves.length === 0) break;
    p = applyMove(p, moves[Math.floor(rng() * moves.length)]!);
    seen.push(p);
  }
  return seen;
}

/** The CLI flags of rule overrides, so that a failing case can be rerun as `patience solve ...`. */
export function ruleFlags(options: RulesOptions): string {
  const flags: string[] = [];
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined) continue;
    flags.push(`--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${String(value)}`);
  }
  return flags.join(' ');
}

/** `patience solve` command line that reproduces deal `seed` of `game` with `options`. */
export const solveCommand = (game: string, options: RulesOptions, seed: number): string =>
  `patience solve ${game} --seed ${seed} ${ruleFlags(options)}`.trim();

/** A position as one line of JSON, for failure messages. */
export const positionText = (p: Position): string => JSON.stringify(formatPosition(p));

/** Why `moves` do not win from `p`, or undefined when they replay, move by move, to a won position. */
export function replayProblem(p: Position, moves: readonly Move[]): string | undefined {
  const result = replay(p, moves);
  if (!result.legal) return `move ${result.failedAt! + 1} (${formatMove(moves[result.failedAt!]!)}) is illegal: ${result.reason}`;
  if (!result.won) return `the ${moves.length} moves replay but do not win (tableau ${result.final.tableau.map((t) => formatCards(t)).join(' / ')})`;
  return undefined;
}

/** The tableau piles as text, sorted: a position's tableau up to pile order. */
export const sortedTableau = (p: Position): string => p.tableau.map((pile) => pile.join('.')).sort().join('/');

/**
 * The brute-force key of a position (src/referee/brute-force.ts) with its tableau piles sorted: the
 * whole position up to pile order, and without redealsUsed when redeals are unlimited. With
 * unlimited redeals, a split on a dealing boundary (waste a multiple of `draw` cards, or stock
 * empty) is the same state as all cards in the stock (see Engine.keySplit), so it is written that
 * way. The solver's packed key must be equal exactly when these are.
 */
export const canonicalKey = (p: Position): string => {
  let { stock, waste } = p;
  if (p.rules.redeals === 'unlimited' && (waste.length % p.rules.draw === 0 || stock.length === 0)) {
    stock = [...stock, ...waste.slice().reverse()];
    waste = [];
  }
  return positionKey({ ...p, stock, waste, tableau: p.tableau.map((pile) => pile.slice()).sort(comparePiles) });
};

function comparePiles(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}
