import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cardSuit, formatCards, makeCard } from '../../src/cards/card';
import { buildsOn, cardOrder, isBuilt, rankAtOrder } from '../../src/rules/order';
import type { Move } from '../../src/rules/move';
import { formatMove } from '../../src/rules/notation';
import { formatPosition, type Position } from '../../src/rules/position';
import { resolveRules, type Rules, type RulesOptions } from '../../src/rules/rules';
import { dealFromSeed } from '../../src/rules/deal';
import { bruteForce, positionKey } from '../../src/referee/brute-force';
import { Engine } from '../../src/search/engine';
import { FORCED_BIT } from '../../src/search/move-code';
import { applyMove, legalMoves, replay } from '../../src/referee/referee';
import { expect } from 'vitest';

/** Shared helpers of the solver's tests (test/search/*.test.ts). */

import { mulberry as mulberryOf } from '../helpers';

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

/** Brute force's verdict (won or not), or undefined when the space is past `maxStates`. */
export function bruteVerdict(p: Position, maxStates: number): boolean | undefined {
  const r = bruteForce(p, { maxStates });
  return r.verdict === 'unknown' ? undefined : r.verdict === 'winnable';
}

/**
 * The forced moves met along random playouts of 30 moves from deals 1..`deals` (the playout of deal
 * `seed` drawn by `mulberry(rngSeed(seed))`): each position whose engine list is one forced move,
 * with the position after that move (its steps played by the referee).
 */
export function* forcedMoves(
  rules: Rules,
  deals: number,
  rngSeed: (seed: number) => number,
): Generator<{ seed: number; p: Position; engine: Engine; m: number; steps: Move[]; next: Position }> {
  const buffer = new Int32Array(4096);
  for (let seed = 1; seed <= deals; seed++) {
    for (const p of playout(dealFromSeed(rules, seed), 30, mulberryOf(rngSeed(seed)))) {
      const engine = new Engine(p);
      const count = engine.generate(buffer, 0);
      const m = buffer[0]!;
      if (count !== 1 || (m & FORCED_BIT) === 0) continue;
      const steps = engine.describe(m);
      let next = p;
      for (const move of steps) next = applyMove(next, move);
      yield { seed, p, engine, m, steps, next };
    }
  }
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
/**
 * Brute force on deal `seed` of `game` under `options` and under `options` with `other` over them
 * (a relaxation of rule 13, or rule 14's stricter game): both verdicts, or undefined when either
 * search gave up after `maxStates` positions.
 */
export function bruteForceBoth(
  game: string,
  options: RulesOptions,
  other: RulesOptions,
  seed: number,
  maxStates: number,
): { real: string; other: string } | undefined {
  const real = bruteForce(dealFromSeed(resolveRules(game, options), seed), { maxStates }).verdict;
  const changed = bruteForce(dealFromSeed(resolveRules(game, { ...options, ...other }), seed), { maxStates }).verdict;
  return real === 'unknown' || changed === 'unknown' ? undefined : { real, other: changed };
}

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
 * empty) is the same state as all cards in the stock (see Talon.keySplit), so it is written that
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

/**
 * Rule 10's relation (docs/algorithms.md), read off a position on its own: where only whole piles
 * move, builds are not in suit and foundation cards never come back, card `a` must go home before
 * card `b` when `a` lies above `b` in a pile (a card is uncovered only when everything above it
 * has gone home), or is lower than `b` in their suit, and so on through such steps. Answers, for a
 * card, every card that must go home after it (the cards still in play only).
 */
export function homeAfter(p: Position): (card: number) => Set<number> {
  const inPlay = [...p.reserve, ...p.tableau.flat(), ...p.stock, ...p.waste];
  const next = new Map<number, number[]>(inPlay.map((c) => [c, []]));
  for (const pile of p.tableau) for (let i = 0; i < pile.length; i++) for (let j = 0; j < i; j++) next.get(pile[i]!)!.push(pile[j]!);
  const order = (c: number) => cardOrder(p.rules, p.baseRank, c);
  for (const a of inPlay) for (const b of inPlay) if (cardSuit(a) === cardSuit(b) && order(a) < order(b)) next.get(a)!.push(b);
  return (card) => {
    const seen = new Set<number>();
    const todo = [...(next.get(card) ?? [])];
    while (todo.length > 0) {
      const c = todo.pop()!;
      if (seen.has(c)) continue;
      seen.add(c);
      todo.push(...next.get(c)!);
    }
    return seen;
  };
}

/** Whether rule 10 applies to the game of `p`: only whole piles move, builds not in suit, nothing back from a foundation. */
export const wholePilesWait = (p: Position): boolean =>
  p.rules.move === 'whole-pile' && p.rules.build !== 'same-suit' && !p.rules.foundationToTableau;

/** Whether some card of `p` must go home before itself (rule 10): then `p` can never be won. */
export function waitsForItself(p: Position): boolean {
  if (!wholePilesWait(p)) return false;
  const after = homeAfter(p);
  return p.tableau.flat().some((c) => after(c).has(c));
}

/** What `checkBruteForce` counted: the positions brute force decided, by its verdict. */
export interface BruteCounts {
  decided: number;
  winnable: number;
  unwinnable: number;
}

/**
 * Where brute force decides `start` within `maxStates` positions, expects the solver's `verdict`
 * to be its verdict, and counts it.
 */
export function checkBruteForce(start: Position, verdict: string, where: string, counts: BruteCounts, maxStates: number): void {
  const brute = bruteForce(start, { maxStates });
  if (brute.verdict === 'unknown') return;
  expect(verdict, `${where} (brute force: ${brute.verdict} after ${brute.states} positions)`).toBe(brute.verdict);
  counts.decided++;
  counts[brute.verdict]++;
}

/** Not vacuous: enough positions decided by brute force, some won and some lost. */
export function expectBothVerdicts(counts: BruteCounts, minDecided: number): void {
  expect(counts.decided).toBeGreaterThan(minDecided);
  expect(counts.winnable).toBeGreaterThan(0);
  expect(counts.unwinnable).toBeGreaterThan(0);
}

/**
 * Rule 15 of docs/algorithms.md, read off the position on its own: whether the engine leaves out
 * `move`, the waste top played onto a pile that is not empty or home, in a game whose talon cards
 * are all at hand (draw one, unlimited redeals, nothing back from the foundations). `endsDealing`:
 * the card ends dealing (rules 3 and 9), which keeps all its moves. Onto pile d, the move is left
 * out when no card that could be built on the waste card, directly or at the end of a chain of
 * talon cards each built on the one before, is the reserve top or the bottom of a unit that may
 * move off a pile other than d. Home, when the first card of its suit after it that is not in the
 * talon is neither a pile top nor the reserve top (a suit that ends in the talon keeps the move).
 * Pile by pile: the engine with twins may keep more (test/search/twins.test.ts).
 * Rule 16, in rule 9's games (`chainBuilds`): into a space, the move is left out when no card that
 * could be built on the waste card there, directly or at the end of such a chain, is the reserve
 * top or a pile's bottom card (only whole piles move there).
 */
export function talonWaits(p: Position, move: Move, endsDealing: boolean): boolean {
  const r = p.rules;
  if (r.draw !== 1 || r.redeals !== 'unlimited' || r.foundationToTableau || endsDealing) return false;
  if (move.kind !== 'move' || move.from.area !== 'waste') return false;
  const talon = new Set([...p.stock, ...p.waste]);
  const reserveTop = p.reserve.at(-1);
  if (move.to.area === 'foundation') {
    const suit = cardSuit(move.card);
    let order = cardOrder(r, p.baseRank, move.card) + 1;
    while (order < r.ranks && talon.has(makeCard(suit, rankAtOrder(r, p.baseRank, order)))) order++;
    if (order >= r.ranks) return false;
    const next = makeCard(suit, rankAtOrder(r, p.baseRank, order));
    return next !== reserveTop && !p.tableau.some((pile) => pile.at(-1) === next);
  }
  if (move.to.area !== 'tableau' || (p.tableau[move.to.index]!.length === 0 && !chainBuilds(p))) return false;
  const d = move.to.index;
  // The bottom cards of the units that may move off each pile other than d.
  const bottoms = new Set<number>();
  p.tableau.forEach((pile, q) => {
    if (q === d) return;
    for (let i = pile.length - 1; i >= 0; i--) {
      if (!isBuilt(r, p.baseRank, pile.slice(i))) break;
      if (r.move === 'runs' || (r.move === 'single' && i === pile.length - 1) || (r.move === 'whole-pile' && i === 0)) bottoms.add(pile[i]!);
    }
  });
  const deck = [...talon, ...p.reserve, ...p.tableau.flat()];
  const seen = new Set([move.card]);
  const stack = [move.card];
  while (stack.length > 0) {
    const x = stack.pop()!;
    for (const y of deck) {
      if (!buildsOn(r, p.baseRank, y, x)) continue;
      if (!talon.has(y)) {
        if (y === reserveTop || bottoms.has(y)) return false;
      } else if (!seen.has(y)) {
        seen.add(y);
        stack.push(y);
      }
    }
  }
  return true;
}

/**
 * Rule 9's games (docs/algorithms.md): builds in suit without wrap, whole piles moving, no
 * automatic fill of spaces and no card back from a foundation (Storehouse).
 */
export function chainBuilds(p: Position): boolean {
  const r = p.rules;
  return r.build === 'same-suit' && r.move === 'whole-pile' && !r.wrap && !r.spaces.startsWith('auto') && !r.foundationToTableau;
}

/**
 * A whole number from the environment, `fallback` when unset: a soak's settings, so that a long run
 * beyond CI's can draw more cases, or other ones, from the same test.
 */
export function soakNumber(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a whole number, 1 or more (got "${text}")`);
  return value;
}

/** The position of the hand-made fixture `fixtures/positions/<file>` (its `position` part, as JSON). */
export function readPositionFixture(file: string): Record<string, unknown> {
  const path = fileURLToPath(new URL(`../../fixtures/positions/${file}`, import.meta.url));
  return (JSON.parse(readFileSync(path, 'utf8')) as { position: Record<string, unknown> }).position;
}
