import { fail } from '../errors';
import type { Move } from '../rules/move';
import { type Position, validatePosition } from '../rules/position';
import { applyMove, isWon, legalMoves } from './referee';

/**
 * A plain breadth-first search over the referee's own moves: no pruning, no symmetry, no pile
 * sorting, a visited set keyed by the whole position written out. It is far too slow for 52 cards;
 * it exists to decide small decks (rules `ranks` 1-6, small layouts) as an independent check of the
 * fast solver, which shares none of its code.
 */
export interface BruteForceOptions {
  /** Stop with `unknown` once this many distinct positions have been seen. */
  maxStates: number;
}

export interface BruteForceResult {
  verdict: 'winnable' | 'unwinnable' | 'unknown';
  /** Distinct positions seen (the start included). */
  states: number;
  /** When winnable: a shortest winning move list (fewest referee moves), which replays. */
  moves?: Move[];
}

/**
 * The whole position as text, one character a card or count (from U+0080, so the ASCII separators
 * between its parts never meet one). `redealsUsed` is part of it only under a redeal limit: with
 * unlimited redeals it never changes what may happen next, and keeping it would make the space
 * infinite.
 */
export function positionKey(p: Position): string {
  const codes: number[] = [];
  const cards = (pile: readonly number[]) => {
    for (const c of pile) codes.push(KEY_CODE + c);
  };
  cards(p.foundations);
  codes.push(PART);
  cards(p.reserve);
  for (const pile of p.tableau) {
    codes.push(PILE);
    cards(pile);
  }
  codes.push(PART);
  cards(p.stock);
  codes.push(PART);
  cards(p.waste);
  codes.push(PART);
  if (p.rules.redeals !== 'unlimited') codes.push(KEY_CODE + p.redealsUsed);
  return String.fromCharCode(...codes);
}

/** `positionKey`'s first code for a card or count, and its separators. */
const KEY_CODE = 0x80;
const PART = 0x7c; // |
const PILE = 0x2f; // /

export function bruteForce(start: Position, options: BruteForceOptions): BruteForceResult {
  validatePosition(start);
  if (typeof options !== 'object' || options === null) fail('bruteForce needs its options: { maxStates }');
  const { maxStates } = options;
  if (!Number.isInteger(maxStates) || maxStates < 1) fail(`bad maxStates ${maxStates}: expected a whole number from 1`);
  // Each state seen: its position, the state it was reached from and the move that did it.
  const positions: (Position | undefined)[] = [start];
  const parent: number[] = [-1];
  const via: (Move | undefined)[] = [undefined];
  const seen = new Set<string>([positionKey(start)]);
  const path = (index: number): Move[] => {
    const moves: Move[] = [];
    for (let i = index; parent[i]! >= 0; i = parent[i]!) moves.push(via[i]!);
    return moves.reverse();
  };
  if (isWon(start)) return { verdict: 'winnable', states: 1, moves: [] };
  for (let head = 0; head < positions.length; head++) {
    const position = positions[head]!;
    // An expanded position is not needed again; dropping it keeps big searches smaller.
    positions[head] = undefined;
    for (const move of legalMoves(position)) {
      const next = applyMove(position, move);
      const key = positionKey(next);
      if (seen.has(key)) continue;
      if (seen.size >= maxStates) return { verdict: 'unknown', states: seen.size };
      seen.add(key);
      positions.push(next);
      parent.push(head);
      via.push(move);
      if (isWon(next)) return { verdict: 'winnable', states: seen.size, moves: path(positions.length - 1) };
    }
  }
  return { verdict: 'unwinnable', states: seen.size };
}
