import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dealFromSeed } from '../../src/rules/deal';
import type { Position } from '../../src/rules/position';
import { presetRules, resolveRules, type RulesOptions, stockSize } from '../../src/rules/rules';
import { cardOrder } from '../../src/rules/order';
import { cardSuit } from '../../src/cards/card';
import { positionKey } from '../../src/referee/brute-force';
import { applyMove, isWon, legalMoves } from '../../src/referee/referee';
import { DeadCheck } from '../../src/search/dead';
import { Engine } from '../../src/search/engine';
import { Solver } from '../../src/search/solver';
import { make } from '../helpers';
import { positionText, solveCommand, waitsForItself } from './support';

/**
 * The dead-state check against brute force, state by state. From a small random deal, a
 * breadth-first search over the referee's moves (no pruning) collects reachable positions and their
 * moves; a backward pass marks every collected position from which a collected won position can be
 * reached. Then every collected position the dead check calls dead must not be so marked: a dead
 * verdict on a position that can still be won is exactly the bug a wrong rule would make.
 *
 * When the search stops at its state limit, positions at the edge have unexplored moves, so "can
 * win" is only known to be true where a win was found: that is the direction checked, so the test
 * stays exact. To keep it from passing by finding nothing, the number of positions called dead is
 * asserted to be large (and printed with DEAD_STATS=1).
 */

const SEED = 7_031;
const STATS = process.env.DEAD_STATS === '1';

interface Group {
  game: string;
  runs: number;
  maxStates: number;
  ranks: readonly number[];
  piles: readonly number[];
  reserve: readonly number[];
  draw: readonly (number | undefined)[];
  redeals: readonly (number | 'unlimited' | undefined)[];
  /** Positions the check must call dead over the group, so that it cannot pass by finding none. */
  minDead: number;
  /** Of those, how many the pile count must find (so that rule is checked too). */
  minByCount: number;
  /** Positions the quick form (the search's default where only whole piles move) must call dead. */
  minQuick: number;
}

const REDEALS = [undefined, 0, 1, 'unlimited'] as const;
const GROUPS: Group[] = [
  { game: 'canfield', runs: 60, maxStates: 3_000, ranks: [3, 4, 5], piles: [2, 3], reserve: [2, 3, 4, 5], draw: [undefined, 1], redeals: REDEALS, minDead: 1_000, minByCount: 100, minQuick: 1_500 },
  { game: 'canfield', runs: 30, maxStates: 3_000, ranks: [2], piles: [3, 4], reserve: [1, 2, 3, 4], draw: [undefined, 1], redeals: REDEALS, minDead: 10, minByCount: 0, minQuick: 0 },
  { game: 'canfield-sequences', runs: 60, maxStates: 3_000, ranks: [3, 4, 5], piles: [2, 3], reserve: [2, 3, 4, 5], draw: [undefined, 1], redeals: REDEALS, minDead: 200, minByCount: 100, minQuick: 500 },
  { game: 'storehouse', runs: 80, maxStates: 3_000, ranks: [3, 4, 5], piles: [2, 3], reserve: [1, 2, 3, 4, 5], draw: [undefined, 3], redeals: REDEALS, minDead: 200, minByCount: 100, minQuick: 500 },
  { game: 'canister', runs: 30, maxStates: 3_000, ranks: [3, 4], piles: [3, 4], reserve: [0], draw: [undefined], redeals: [undefined], minDead: 0, minByCount: 0, minQuick: 0 },
  { game: 'british-canister', runs: 30, maxStates: 3_000, ranks: [3, 4], piles: [3, 4], reserve: [0], draw: [undefined], redeals: [undefined], minDead: 0, minByCount: 0, minQuick: 0 },
];

function options(group: Group): fc.Arbitrary<RulesOptions> {
  return fc
    .record({
      ranks: fc.constantFrom(...group.ranks),
      piles: fc.constantFrom(...group.piles),
      reserve: fc.constantFrom(...group.reserve),
      draw: fc.constantFrom(...group.draw),
      redeals: fc.constantFrom(...group.redeals),
    })
    .map(({ ranks, piles, reserve, draw, redeals }) => {
      const preset = presetRules(group.game);
      const o: RulesOptions = { ranks, piles };
      if (preset.reserve > 0) o.reserve = reserve;
      const stock = stockSize({ ...preset, ...o } as typeof preset);
      if (stock > 0) {
        if (draw !== undefined) o.draw = draw;
        if (redeals !== undefined) o.redeals = redeals;
      }
      return { o, stock };
    })
    .filter(({ stock }) => stock >= 0)
    .map(({ o }) => o);
}

/** Reachable positions (up to the limit), and for each whether a win is reachable among them. */
function explore(start: Position, maxStates: number): { positions: Position[]; canWin: Uint8Array } {
  const positions: Position[] = [start];
  const index = new Map<string, number>([[positionKey(start), 0]]);
  const back: number[][] = [[]];
  const wins: number[] = [];
  if (isWon(start)) wins.push(0);
  for (let head = 0; head < positions.length; head++) {
    for (const move of legalMoves(positions[head]!)) {
      const next = applyMove(positions[head]!, move);
      const key = positionKey(next);
      let j = index.get(key);
      if (j === undefined) {
        if (positions.length >= maxStates) continue;
        j = positions.length;
        index.set(key, j);
        positions.push(next);
        back.push([]);
        if (isWon(next)) wins.push(j);
      }
      back[j]!.push(head);
    }
  }
  const canWin = new Uint8Array(positions.length);
  const queue = [...wins];
  for (const w of wins) canWin[w] = 1;
  while (queue.length > 0) {
    const j = queue.pop()!;
    for (const i of back[j]!) {
      if (canWin[i] === 0) {
        canWin[i] = 1;
        queue.push(i);
      }
    }
  }
  return { positions, canWin };
}

describe('the dead-state check never calls a position dead from which brute force reaches a win', () => {
  it.each(GROUPS.map((g, i) => [`${g.game} (${g.ranks.join('/')} ranks, ${g.piles.join('/')} piles)`, g, i] as const))(
    '%s',
    (_label, group, index) => {
      let positionsSeen = 0;
      let dead = 0;
      let byCount = 0;
      let lost = 0;
      let quickDead = 0;
      fc.assert(
        fc.property(options(group), fc.integer({ min: 0, max: 2 ** 31 - 1 }), (o, seed) => {
          const start = dealFromSeed(resolveRules(group.game, o), seed);
          const { positions, canWin } = explore(start, group.maxStates);
          positions.forEach((p, i) => {
            const check = new DeadCheck(new Engine(p));
            const isDead = check.isDead();
            if (isDead) {
              expect(canWin[i], `${solveCommand(group.game, o, seed)}: called dead but can be won:\n${positionText(p)}`).toBe(0);
              dead++;
              byCount += check.deadByCount;
            }
            // The quick form asks less of the same relaxation: what it calls dead, the full check does.
            if (new DeadCheck(new Engine(p), true, true).isDead()) {
              expect(isDead, `${solveCommand(group.game, o, seed)}: the quick form calls dead what the full check does not:\n${positionText(p)}`).toBe(true);
              quickDead++;
            }
            if (canWin[i] === 0) lost++;
          });
          positionsSeen += positions.length;
        }),
        { seed: SEED + index, numRuns: group.runs },
      );
      if (STATS) console.log(`${group.game}: ${positionsSeen} positions, ${lost} not known winnable, ${dead} called dead (${byCount} by the pile count), ${quickDead} by the quick form`);
      expect(dead).toBeGreaterThanOrEqual(group.minDead);
      expect(byCount).toBeGreaterThanOrEqual(group.minByCount);
      expect(quickDead).toBeGreaterThanOrEqual(group.minQuick);
    },
    300_000,
  );
});

/**
 * Rule 10 of docs/algorithms.md: where only whole piles move (builds not in suit, nothing back from
 * a foundation), a card above another in a pile goes home before it, and a card goes home before
 * the higher cards of its suit; a card that by these steps must go home before itself (above a lower
 * card of its own suit, or through other piles and suits) never goes home, so the engine never makes
 * a move that leads there. Brute force checks the premise: no reachable position where a card waits
 * for itself can be won, and such positions occur through other piles too.
 */
describe('rule 10: a card that must go home before itself, whole piles moving, is never won (brute force)', () => {
  const buried = (p: Position): boolean =>
    p.tableau.some((pile) =>
      pile.some((y, i) => pile.slice(i + 1).some((x) => cardSuit(x) === cardSuit(y) && cardOrder(p.rules, p.baseRank, y) < cardOrder(p.rules, p.baseRank, x))),
    );
  // With 2 ranks no pile can hold two cards of one suit.
  const groups = GROUPS.filter((g) => g.game === 'canfield' && g.ranks.some((r) => r >= 3));
  it.each(groups.map((g, i) => [`${g.game} (${g.ranks.join('/')} ranks, ${g.piles.join('/')} piles)`, g, i] as const))(
    '%s',
    (_label, group, index) => {
      let waiting = 0;
      let acrossPiles = 0;
      fc.assert(
        fc.property(options(group), fc.integer({ min: 0, max: 2 ** 31 - 1 }), (o, seed) => {
          const start = dealFromSeed(resolveRules(group.game, o), seed);
          const { positions, canWin } = explore(start, group.maxStates);
          positions.forEach((p, i) => {
            if (!waitsForItself(p)) return;
            waiting++;
            if (!buried(p)) acrossPiles++;
            expect(canWin[i], `${solveCommand(group.game, o, seed)}: a card waits for itself, but it can be won:\n${positionText(p)}`).toBe(0);
          });
        }),
        { seed: SEED + 100 + index, numRuns: group.runs },
      );
      if (STATS) console.log(`${group.game}: ${waiting} positions where a card waits for itself, ${acrossPiles} only through other piles`);
      expect(waiting).toBeGreaterThanOrEqual(100);
      expect(acrossPiles).toBeGreaterThanOrEqual(10);
    },
    300_000,
  );
});

describe('the dead-state check on hand-made positions (the examples of docs/algorithms.md)', () => {
  const isDead = (game: string, layout: Parameters<typeof make>[1]) => {
    const check = new DeadCheck(new Engine(make(game, layout)));
    return { dead: check.isDead(), byCount: check.deadByCount };
  };

  it('canfield: a pile built round the corner past the base holds a card above a lower one of its suit', () => {
    // Base 5: 3H (order 11) lies above 5H (order 0); 3H needs 5H home, 5H needs 3H gone.
    expect(isDead('canfield', { base: '5', tableau: ['5H 4S 3H', 'KC', 'QD', 'JC'], stock: 'rest' }).dead).toBe(true);
    // The same cards, one lower: nothing above a lower card of its own suit, and the rest is free.
    expect(isDead('canfield', { base: '5', tableau: ['7H 6S', 'KC', 'QD', 'JC'], stock: 'rest' }).dead).toBe(false);
  });

  it('canfield: two piles past the base that wait for each other', () => {
    // 5H waits for 4S home, which waits for 5S, under 4H, which waits for 5H.
    expect(isDead('canfield', { base: '5', tableau: ['5H 4S', '5S 4H', 'QD', 'JC'], stock: 'rest' }).dead).toBe(true);
  });

  it('storehouse: the pile count (five cards must each hold a pile before 3S leaves the reserve)', () => {
    const r = isDead('storehouse', { foundations: [1, 1, 1, 1], reserve: '5C 3H 3D 3C 3S AS AC AD AH', tableau: ['4C', '9D', '9H', '9S'], stock: 'rest' });
    expect(r).toEqual({ dead: true, byCount: 1 });
    // One ace fewer above the cut: four cards for four piles, and the count proves nothing.
    expect(isDead('storehouse', { foundations: [1, 1, 1, 1], reserve: '5C 3H 3D 3C 3S AS AC AD', tableau: ['4C', '9D', '9H', '9S'], stock: 'rest' }).byCount).toBe(0);
  });
});

describe("the search's default ('auto'): the quick form in Hoyle Canfield, no check elsewhere", () => {
  const solver = new Solver({ memoryMiB: 64 });
  // The real search alone (rule 13's search beside it, on by default in Hoyle Canfield, would take a
  // share of the node limit): these tests count its checks.
  const run = (game: string, deadCheck?: boolean | 'auto') =>
    solver.solve(dealFromSeed(resolveRules(game), 377), { nodeLimit: 200_000, drawOneProof: false, ...(deadCheck === undefined ? {} : { deadCheck }) });

  it('Hoyle Canfield checks states by default and proves some dead, as the full check does there', () => {
    const quick = run('canfield');
    const full = run('canfield', true);
    expect(quick.deadChecked).toBeGreaterThan(10_000);
    expect(quick.deadStates).toBeGreaterThan(10_000);
    // Measured: on this deal the quick form prunes exactly the full check's states, so the two
    // searches are the same, node for node.
    expect(quick.deadStates).toBe(full.deadStates);
    expect(quick.uniqueStates).toBe(full.uniqueStates);
    expect(run('canfield', false).deadChecked).toBeUndefined();
  });

  it('canfield-sequences and Storehouse check nothing unless asked', () => {
    for (const game of ['canfield-sequences', 'storehouse']) {
      expect(run(game).deadChecked, game).toBeUndefined();
      expect(run(game, true).deadChecked, game).toBeGreaterThan(0);
    }
  });
});
