import type { Move } from '../rules/move';
import type { Position } from '../rules/position';
import { positionKey } from './brute-force';
import { fail } from '../errors';
import { applyMove, legalMoves, replay } from './referee';

/**
 * A winning line made shorter, never longer, with the referee's moves only: the shortest way from
 * the start to the last position of `moves` through the positions the line passes, where a step is
 * any legal move from one of them to another one further along, and a position met again later is
 * reached at no cost (the loop between is cut). The answer wins from `start` whenever `moves` does,
 * since each of its steps is a legal move that lands on a position of the line, and it ends where
 * the line ends.
 *
 * The solver's line is the path of its search, which wanders where moves can be undone: the winning
 * lines of deals 1-200 (300,000 nodes each; v20, session 33) are 38% shorter after this in
 * canfield-relaxed (73,300 moves in all, 45,507 after), 37% in Canister (23,646, 14,838), 1.7% in
 * canfield-sequences, 5 moves of 26,832 in Hoyle Canfield and none in Storehouse. It costs a
 * legal-move list and a replay of each move per position of the line (8.5 ms a canfield-relaxed
 * line on average, 120 ms for one of 5,365 moves, as measured in session 12), so the CLI's `solve`
 * does it, and a win-rate run, which keeps the solver's line, does not.
 */
export function shortenSolution(start: Position, moves: readonly Move[]): Move[] {
  // The line must be one: every step below is taken on its word.
  const played = replay(start, moves);
  if (!played.legal) fail(`shortenSolution: move ${played.failedAt! + 1} of the line is illegal: ${played.reason}`);
  const line: Position[] = [start];
  for (const move of moves) line.push(applyMove(line[line.length - 1]!, move));
  const n = moves.length;
  // Where each position stands on the line (a position can be met more than once).
  const keys = line.map(positionKey);
  const at = new Map<string, number[]>();
  keys.forEach((k, i) => {
    const list = at.get(k);
    if (list) list.push(i);
    else at.set(k, [i]);
  });
  // Fewest moves to each place on the line, found in line order (every step goes forward).
  const fewest = new Array<number>(n + 1).fill(Infinity);
  const cameFrom = new Array<number>(n + 1).fill(-1);
  const stepTo = new Array<Move | undefined>(n + 1);
  fewest[0] = 0;
  const reach = (i: number, j: number, cost: number, move: Move | undefined) => {
    if (j > i && cost < fewest[j]!) {
      fewest[j] = cost;
      cameFrom[j] = i;
      stepTo[j] = move;
    }
  };
  for (let i = 0; i < n; i++) {
    if (fewest[i] === Infinity) continue;
    for (const j of at.get(keys[i]!)!) reach(i, j, fewest[i]!, undefined);
    reach(i, i + 1, fewest[i]! + 1, moves[i]!);
    for (const move of legalMoves(line[i]!)) {
      const later = at.get(positionKey(applyMove(line[i]!, move)));
      if (later) for (const j of later) reach(i, j, fewest[i]! + 1, move);
    }
  }
  const out: Move[] = [];
  for (let j = n; j > 0; j = cameFrom[j]!) {
    const move = stepTo[j];
    if (move) out.push(move);
  }
  return out.reverse();
}
