import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dealFromSeed } from '../../src/rules/deal';
import type { Move } from '../../src/rules/move';
import { formatMove } from '../../src/rules/notation';
import { cardSuit } from '../../src/cards/card';
import { buildsOn, cardOrder } from '../../src/rules/order';
import { parsePosition, type Position } from '../../src/rules/position';
import { resolveRules, type RulesOptions } from '../../src/rules/rules';
import { positionKey } from '../../src/referee/brute-force';
import { applyMove, checkMove, legalMoves } from '../../src/referee/referee';
import { Engine } from '../../src/search/engine';
import { FORCED_BIT, moveType, MT_R2F, MT_T2F, MT_W2F, REDEAL_BIT } from '../../src/search/move-code';
import { canonicalKey, chainBuilds, homeAfter, mulberry, playout, positionText, solveCommand, talonWaits, wholePilesWait } from './support';

/**
 * Differential test of the engine's move generator against the referee (issue 3). From random
 * positions:
 * - every engine move, written out by `describe` as public moves (deals and redeals, then the move),
 *   replays legally with the referee and leads to exactly the position `make` + `toPosition` give
 *   (automatic reserve fill included), and `undo` comes back;
 * - every referee move other than deal and redeal leads to a position the engine reaches in one move,
 *   except where docs/algorithms.md prunes: (a) a forced, proved-safe foundation move is the only
 *   move generated; (b) a whole pile never moves into an empty pile; (c) only the first empty pile
 *   is a destination (so moves into a space are compared up to the order of the piles); (d) deals and
 *   redeals are not engine moves: instead every waste card that deals and redeals alone can bring to
 *   the top (the one on top now included) is played by one engine move, with no more redeals used;
 *   (e) with draw 1, dealing stops at a card that is safe to play to its foundation (and, under
 *   rule 9, at a card that may be built on a pile); (f) under rule 9 (builds in suit, whole piles
 *   moving) a build with one place to go is forced; (g) under rule 10 (whole piles moving, builds
 *   not in suit, nothing back from a foundation) no move makes a card wait for itself (put on a
 *   top that must go home before it, through piles and suits);
 *   (h) under rule 11 (a draw of more than one, not rule 9) a waste card that may also be built on a
 *   pile does not go home from the waste: the engine reaches the same position in two moves, the
 *   build and then the card home from the pile, which is checked;
 * (i) under rule 15 (draw one, unlimited redeals, nothing back from a foundation) a waste card is
 *   played onto a pile only when a card that could be built on it is at hand, and goes home only
 *   when the next cards of its suit can follow; under rule 16 (the same in rule 9's games) it goes
 *   into a space only when a card that could be built on it there is at hand (`talonWaits`, the
 *   test's own reading).
 */

const SEED = 4_242;

const GAMES: readonly [string, RulesOptions][] = [
  ['canister', {}],
  ['american-canister', {}],
  ['british-canister', {}],
  ['storehouse', {}],
  ['canfield', {}],
  ['canfield-relaxed', {}],
  ['canfield-sequences', {}],
  ['canister', { ranks: 4, piles: 5 }],
  ['american-canister', { ranks: 3, piles: 4 }],
  ['british-canister', { ranks: 3, piles: 4 }],
  ['storehouse', { ranks: 5, reserve: 3, piles: 3, draw: 3, redeals: 1 }],
  ['storehouse', { ranks: 4, reserve: 1, piles: 2, redeals: 'unlimited' }],
  // Rule 16 on whole deals: talon cards into a space, with chains of talon cards.
  ['storehouse', { redeals: 'unlimited' }],
  ['canfield', { draw: 1, redeals: 2 }],
  ['canfield', { ranks: 4, reserve: 2, piles: 3, redeals: 1 }],
  ['canfield-relaxed', { ranks: 4, reserve: 1, piles: 3 }],
  ['canfield-relaxed', { draw: 1, redeals: 0 }],
  ['canfield-sequences', { ranks: 4, reserve: 2, piles: 4, draw: 1 }],
  ['canfield-sequences', { redeals: 2 }],
  // Rule 15 on whole deals: chains of talon cards, twins and whole piles.
  ['canfield-sequences', { draw: 1 }],
  ['canfield', { draw: 1 }],
];

/** What the checks met, per game, so that the test can show it reached every kind of move. */
const seen = new Map<string, Map<string, number>>();
function tally(game: string, kind: string): void {
  const counts = seen.get(game) ?? new Map<string, number>();
  counts.set(kind, (counts.get(kind) ?? 0) + 1);
  seen.set(game, counts);
}

const isFoundationType = (m: number) => moveType(m) === MT_T2F || moveType(m) === MT_R2F || moveType(m) === MT_W2F;

/** Every card still in play (not on a foundation). */
const inPlay = (p: Position): number[] => [...p.reserve, ...p.tableau.flat(), ...p.stock, ...p.waste];

/**
 * Checks the engine's moves from `p` against the referee's, both ways (see the file comment).
 * `where` names the case in failure messages.
 */
function checkSuccessors(p: Position, where: string, game: string): void {
  // Twin swaps off: this compares single moves (test/search/twins.test.ts covers the twin classes).
  const engine = new Engine(p, 0, false);
  const buffer = new Int32Array(4096);
  const count = engine.generate(buffer, 0);
  const moves = Array.from(buffer.subarray(0, count));
  const at = `${where}\n  position ${positionText(p)}`;
  const forced = count === 1 && (moves[0]! & FORCED_BIT) !== 0;
  if (!forced) expect(moves.filter((m) => (m & FORCED_BIT) !== 0), `${at}\n  a forced move must be the only one`).toEqual([]);

  // Forward: each engine move is legal for the referee and lands where the referee says.
  const exact = new Set<string>();
  const upToPileOrder = new Set<string>();
  // The same positions without redeals used, mapped to the fewest redeals the engine used to get there.
  const fewestRedeals = new Map<string, number>();
  const fewestRedealsUpToPileOrder = new Map<string, number>();
  for (const m of moves) {
    const described = engine.describe(m);
    const text = described.map(formatMove).join(', ');
    let q = p;
    described.forEach((move: Move, i) => {
      const reason = checkMove(q, move);
      expect(reason, `${at}\n  engine move ${m} = ${text}: step ${i + 1} is illegal`).toBeUndefined();
      if (i < described.length - 1) expect(move.kind === 'deal' || move.kind === 'redeal', `${at}\n  ${text}`).toBe(true);
      q = applyMove(q, move);
    });
    expect(described.at(-1)!.kind, `${at}\n  ${text}`).toBe('move');
    expect(waitsForItselfAfter(applyBefore(p, described), described.at(-1)!), `${at}\n  engine move ${text} makes a card wait for itself`).toBe(false);
    const info = engine.make(m);
    const reached = engine.toPosition();
    engine.undo(m, info);
    expect(reached, `${at}\n  engine move ${m} = ${text} lands elsewhere than the referee's`).toEqual(q);
    expect(engine.toPosition(), `${at}\n  undo of ${text}`).toEqual(p);
    exact.add(positionKey(reached));
    upToPileOrder.add(canonicalKey(reached));
    for (const [map, key] of [[fewestRedeals, talonKey(reached)], [fewestRedealsUpToPileOrder, talonKey(reached, true)]] as const) {
      map.set(key, Math.min(map.get(key) ?? Infinity, reached.redealsUsed));
    }

    tally(game, `engine type ${moveType(m)}`);
    if (described.length > 1) tally(game, 'engine: deals before a waste card');
    if ((m & REDEAL_BIT) !== 0) tally(game, 'engine: redeal before a waste card');
    const last = described.at(-1)!;
    if (last.kind === 'move' && last.from.area === 'tableau' && reached.reserve.length < p.reserve.length) tally(game, 'engine: auto fill');
  }

  if (forced) {
    // (a) Only the forced move is generated; check that it is one docs/algorithms.md proves safe:
    // a foundation move of a card that no card still in play could ever be built on.
    const m = moves[0]!;
    const last = engine.describe(m).at(-1)!;
    if (last.kind !== 'move') throw new Error('unreachable');
    expect(p.rules.foundationToTableau, at).toBe(false);
    if (!isFoundationType(m)) {
      // (f) Or a build where the card has one place to go (rule 9): builds in suit, whole piles
      // moving, no automatic fill; a whole pile, the reserve top or (drawing one) the waste top,
      // onto a pile that is not empty.
      expect(chainBuilds(p), `${at}\n  forced move ${formatMove(last)} is not a foundation move`).toBe(true);
      expect(last.to.area === 'tableau' && p.tableau[last.to.index]!.length > 0, `${at}\n  forced ${formatMove(last)}`).toBe(true);
      if (last.from.area === 'tableau') expect(last.count, `${at}\n  forced ${formatMove(last)} is not a whole pile`).toBe(p.tableau[last.from.index]!.length);
      if (last.from.area === 'waste') expect(engine.describe(m).length === 1 && p.rules.draw === 1, `${at}\n  forced ${formatMove(last)}: not the waste top`).toBe(true);
      tally(game, 'forced build');
      return;
    }
    if (last.from.area === 'waste') expect(p.rules.draw, `${at}\n  a waste card is forced only when drawing one`).toBe(1);
    // Cards in play that could be built on it may remain only when each is "dead": next on its own
    // foundation (so it can always go there instead) with nothing in play that could build on it.
    const builders = liveBuilders(p, last.card);
    expect(builders, `${at}\n  forced ${formatMove(last)}, but these cards could still be built on it`).toEqual([]);
    if (inPlay(p).some((c) => buildsOn(p.rules, p.baseRank, c, last.card))) tally(game, 'forced, with dead builders in play');
    if (inPlay(p).some((c) => buildsOn(p.rules, p.baseRank, c, last.card) && stuckBuilder(p, c, last.card))) tally(game, 'forced, with stuck builders in play');
    tally(game, 'forced');
    return;
  }

  // Backward: each referee move (not a deal or redeal) is matched, modulo the documented pruning.
  for (const move of legalMoves(p)) {
    if (move.kind !== 'move') continue;
    const intoSpace = move.to.area === 'tableau' && p.tableau[move.to.index]!.length === 0;
    const wholePile = move.from.area === 'tableau' && move.count === p.tableau[move.from.index]!.length;
    if (intoSpace && wholePile) {
      tally(game, 'referee: whole pile into a space (pruned)');
      continue; // (b)
    }
    if (waitsForItselfAfter(p, move)) {
      tally(game, 'referee: makes a card wait for itself (pruned)');
      if (!buriesLower(p, move)) tally(game, 'referee: makes a card wait for itself through another pile (pruned)');
      continue; // (g)
    }
    const next = applyMove(p, move);
    if (homeViaPile(p, move)) {
      expect(viaPile(engine, moves, move, next), `${at}\n  the referee's ${formatMove(move)}: no engine build and move home from the pile reach it`).toBe(true);
      tally(game, 'referee: waste -> foundation, reached through a pile (rule 11)');
      continue; // (h)
    }
    if (talonWaits(p, move, endsDealing(p))) {
      tally(game, `referee: waste -> ${move.to.area} left for later (rule ${intoSpace ? 16 : 15})`);
      continue; // (i)
    }
    const message = `${at}\n  the referee's ${formatMove(move)} has no engine move that reaches the same position`;
    if (intoSpace) expect(upToPileOrder.has(canonicalKey(next)), message).toBe(true); // (c)
    else expect(exact.has(positionKey(next)), message).toBe(true);
    tally(game, `referee: ${move.from.area} -> ${move.to.area}${intoSpace ? ' (space)' : ''}${move.count > 1 ? ' (run)' : ''}`);
  }

  // (d) The K+ stock: every waste card that deals and redeals alone can bring to the top is played
  // by one engine move, using no more redeals than the referee's way (fewer redeals used can do
  // everything more can).
  // (e) With draw 1, dealing never goes past a card that is safe to play to its foundation: the
  // deals-only positions after the first whose waste top is such a card are not reached.
  let pastSafe = false;
  for (const q of dealtOnly(p)) {
    if (pastSafe) {
      tally(game, 'referee: dealt past a safe foundation card (pruned)');
      continue;
    }
    if (p.rules.draw === 1 && (safeWasteTop(q) || (chainBuilds(q) && wasteTopBuilds(q)))) pastSafe = true;
    if (q === p) continue;
    for (const move of legalMoves(q)) {
      if (move.kind !== 'move' || move.from.area !== 'waste') continue;
      if (waitsForItselfAfter(q, move)) {
        tally(game, 'referee: waste card made to wait for itself after dealing (pruned)');
        continue; // (g)
      }
      const intoSpace = move.to.area === 'tableau' && q.tableau[move.to.index]!.length === 0;
      if (talonWaits(q, move, endsDealing(q))) {
        tally(game, `referee: waste -> ${move.to.area} left for later after dealing (rule ${intoSpace ? 16 : 15})`);
        continue; // (i)
      }
      const next = applyMove(q, move);
      if (homeViaPile(q, move)) {
        expect(viaPile(engine, moves, move, next), `${at}\n  after dealing, the referee's ${formatMove(move)}: no engine build and move home from the pile reach it`).toBe(true);
        tally(game, 'referee: waste -> foundation after dealing, reached through a pile (rule 11)');
        continue; // (h)
      }
      const fewest = (intoSpace ? fewestRedealsUpToPileOrder : fewestRedeals).get(talonKey(next, intoSpace));
      const message = `${at}\n  after ${q.redealsUsed - p.redealsUsed} redeal(s) and deals, the referee's ${formatMove(move)} (${next.redealsUsed} redeals used) has no engine move that reaches the same position`;
      expect(fewest !== undefined && fewest <= next.redealsUsed, message).toBe(true);
      tally(game, `referee: waste -> ${move.to.area} after dealing`);
    }
  }
}

/**
 * Whether the waste top of `p` may go to its foundation and is safe there as the forced moves are
 * (see (a)): every card in play that could be built on it is "dead".
 */
function safeWasteTop(p: Position): boolean {
  const top = p.waste.at(-1);
  if (top === undefined || p.rules.foundationToTableau) return false;
  const toFoundation = legalMoves(p).some((m) => m.kind === 'move' && m.from.area === 'waste' && m.to.area === 'foundation');
  return toFoundation && liveBuilders(p, top).length === 0;
}

/**
 * The cards in play that could be built on `card` and are not "dead": a dead card is next on its
 * own foundation (so it can always go there instead) with nothing in play that could build on it.
 */
function liveBuilders(p: Position, card: number): number[] {
  const cards = inPlay(p);
  const builds = (y: number, x: number) => buildsOn(p.rules, p.baseRank, y, x);
  const next = (x: number) => p.foundations[cardSuit(x)] === cardOrder(p.rules, p.baseRank, x);
  // Where only whole piles move, also when nothing lies on it and each card that could be built on
  // it is stuck (rule 2's third case, applied to the builder).
  const covered = (x: number) => p.tableau.some((pile) => pile.indexOf(x) >= 0 && pile.indexOf(x) < pile.length - 1);
  const dead = (x: number) =>
    next(x) &&
    (!cards.some((y) => builds(y, x)) || (wholePilesWait(p) && !covered(x) && cards.every((y) => !builds(y, x) || stuckBuilder(p, y, x))));
  return cards.filter((c) => builds(c, card) && !dead(c) && !stuckBuilder(p, c, card));
}

/**
 * Rule 2's third case, where only whole piles move (rule 10's games): builder x can never be built
 * on `card` when x lies on another card in a pile (it leaves the pile only for its foundation), or
 * `card` must go home before x (x on it would wait for itself).
 */
function stuckBuilder(p: Position, x: number, card: number): boolean {
  if (!wholePilesWait(p)) return false;
  if (p.tableau.some((pile) => pile.indexOf(x) > 0)) return true;
  return homeAfter(p)(card).has(x);
}

/**
 * Rule 10 (g): whether `move` makes a card wait for itself, in a game where only whole piles move,
 * builds are not in suit and foundation cards never come back: it puts a card, or a whole pile
 * with bottom card b, onto a pile top that must already go home before it (before b), so that
 * neither could ever go home.
 */
function waitsForItselfAfter(p: Position, move: Move): boolean {
  if (move.kind !== 'move' || move.to.area !== 'tableau' || !wholePilesWait(p)) return false;
  const below = p.tableau[move.to.index]!;
  if (below.length === 0) return false;
  const bottom = move.from.area === 'tableau' ? p.tableau[move.from.index]![0]! : move.card;
  return homeAfter(p)(below.at(-1)!).has(bottom);
}

/** Whether `move` puts a card above a lower card of its own suit in the same pile (rule 10's simplest case; for the tally). */
function buriesLower(p: Position, move: Move): boolean {
  if (move.kind !== 'move' || move.to.area !== 'tableau') return false;
  const below = p.tableau[move.to.index]!;
  const moved = move.from.area === 'tableau' ? p.tableau[move.from.index]! : [move.card];
  const order = (c: number) => cardOrder(p.rules, p.baseRank, c);
  return moved.some((x) => below.some((y) => cardSuit(y) === cardSuit(x) && order(y) < order(x)));
}

/**
 * Rule 11 (h): whether `move`, a waste card to its foundation, is one the engine leaves out: drawing
 * more than one card, outside rule 9, when the card may also be built on a pile that is not empty.
 */
function homeViaPile(p: Position, move: Move): boolean {
  if (move.kind !== 'move' || move.from.area !== 'waste' || move.to.area !== 'foundation') return false;
  if (p.rules.draw === 1 || chainBuilds(p)) return false;
  return legalMoves(p).some(
    (m) => m.kind === 'move' && m.from.area === 'waste' && m.to.area === 'tableau' && p.tableau[m.to.index]!.length > 0,
  );
}

/**
 * Whether one of the engine's `moves` builds `move`'s card from the waste on a pile, and from there
 * a generated move takes it home, reaching the position `want` with no more redeals used.
 */
function viaPile(engine: Engine, moves: number[], move: Move, want: Position): boolean {
  if (move.kind !== 'move') return false;
  const buffer = new Int32Array(4096);
  for (const m of moves) {
    const last = engine.describe(m).at(-1)!;
    if (last.kind !== 'move' || last.card !== move.card || last.from.area !== 'waste' || last.to.area !== 'tableau') continue;
    const info = engine.make(m);
    const count = engine.generate(buffer, 0);
    let found = false;
    for (let i = 0; i < count && !found; i++) {
      const home = buffer[i]!;
      const step = engine.describe(home).at(-1)!;
      if (step.kind !== 'move' || step.card !== move.card || step.to.area !== 'foundation') continue;
      const info2 = engine.make(home);
      const reached = engine.toPosition();
      found = talonKey(reached) === talonKey(want) && reached.redealsUsed <= want.redealsUsed;
      engine.undo(home, info2);
    }
    engine.undo(m, info);
    if (found) return true;
  }
  return false;
}

/** The position after every step of `described` but the last (the deals and redeals before a waste card). */
function applyBefore(p: Position, described: Move[]): Position {
  let q = p;
  for (const move of described.slice(0, -1)) q = applyMove(q, move);
  return q;
}

/** Rule 9's games: builds in suit without wrap, whole piles moving, no automatic fill, nothing back from a foundation. */
/** Whether the waste top of `p` ends dealing, drawing one (rules 3 and 9). */
function endsDealing(p: Position): boolean {
  return p.rules.draw === 1 && (safeWasteTop(p) || (chainBuilds(p) && wasteTopBuilds(p)));
}

/** Whether the waste top of `p` may be built on a tableau pile (not into a space). */
function wasteTopBuilds(p: Position): boolean {
  return legalMoves(p).some((m) => m.kind === 'move' && m.from.area === 'waste' && m.to.area === 'tableau' && p.tableau[m.to.index]!.length > 0);
}

/** The whole position but for redeals used, with the tableau piles sorted when `sorted`. */
function talonKey(p: Position, sorted = false): string {
  const tableau = sorted ? p.tableau.map((pile) => pile.join('.')).sort().map((t) => (t === '' ? [] : t.split('.').map(Number))) : p.tableau;
  return positionKey({ ...p, tableau, redealsUsed: 0 });
}

/** `p` and every position reached from it by deals and redeals alone (breadth first). */
function dealtOnly(p: Position): Position[] {
  // positionKey leaves out redeals used when they are unlimited, which keeps this finite.
  const seen = new Set<string>([positionKey(p)]);
  const queue = [p];
  for (let i = 0; i < queue.length; i++) {
    for (const move of legalMoves(queue[i]!)) {
      if (move.kind === 'move') continue;
      const next = applyMove(queue[i]!, move);
      const key = positionKey(next);
      if (seen.has(key)) continue;
      seen.add(key);
      queue.push(next);
    }
  }
  return queue;
}

describe.each(GAMES)('engine moves = referee moves: %s %j', (game, options) => {
  const rules = resolveRules(game, options);
  it('from positions of random playouts', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer(), (seed, choices) => {
        const rng = mulberry(choices);
        const positions = playout(dealFromSeed(rules, seed), 100, rng);
        positions.forEach((p, step) => {
          if (step % 3 === 0) checkSuccessors(p, `${solveCommand(game, options, seed)}, playout step ${step}`, game);
        });
      }),
      { seed: SEED, numRuns: 20 },
    );
  });
});

/**
 * Hand-made positions for what random playouts rarely reach. Under wrap (canfield, canfield-relaxed)
 * a built run can be longer than the number of ranks: a run of R + 1 cards (R ranks per suit) has
 * two cards of one rank, of different colours, one R cards below the other. Both can land on a
 * suitable top card, so the engine must offer the long move as well as the short one.
 */
const HAND_MADE: { name: string; position: Record<string, unknown> }[] = [
  {
    name: 'canfield, 3 ranks: a 4-card whole pile that wraps moves onto 3C',
    position: {
      game: 'canfield',
      rules: { ranks: 3, reserve: 2, piles: 3, redeals: 0 },
      foundations: [[], ['AD'], ['AH', '2H'], []],
      baseRank: 'A',
      tableau: [['3D'], ['2D', 'AC', '3H', '2S'], ['3C']],
      stock: ['3S', 'AS', '2C'],
    },
  },
  {
    name: 'canfield-relaxed, 3 ranks: runs of 4 and 7 cards whose bottom card wraps round',
    position: {
      game: 'canfield-relaxed',
      rules: { ranks: 3, reserve: 1, piles: 3 },
      foundations: [[], [], ['AH'], []],
      baseRank: 'A',
      reserve: ['3S'],
      tableau: [['AS', '3D', '2C', 'AD', '3C', '2D', 'AC'], ['2H'], ['2S']],
      stock: ['3H'],
    },
  },
  {
    name: 'canfield-sequences, 3 ranks: the same cards without wrap, so runs stop at the base',
    position: {
      game: 'canfield-sequences',
      rules: { ranks: 3, reserve: 1, piles: 3 },
      foundations: [[], [], [], []],
      baseRank: 'A',
      tableau: [['3D', '2C', 'AD'], ['2H'], ['2S', 'AH']],
      stock: ['3H', 'AS', '3C', '2D', 'AC', '3S'],
    },
  },
];

describe('engine moves = referee moves: hand-made positions', () => {
  it.each(HAND_MADE)('$name', ({ name, position }) => {
    const p = parsePosition(position);
    checkSuccessors(p, name, p.rules.game);
  });
});

describe('the differential checks are not vacuous', () => {
  // Runs after the checks above (vitest runs a file's tests in order).
  it('met every kind of move in the games that have it', () => {
    const kinds = (game: string) => seen.get(game) ?? new Map<string, number>();
    const expectSeen = (game: string, kind: string) => expect(kinds(game).get(kind) ?? 0, `${game}: ${kind}`).toBeGreaterThan(0);
    // canfield-relaxed forces nothing: its foundation cards can come back.
    for (const [game] of GAMES) if (game !== 'canfield-relaxed') expectSeen(game, 'forced');
    // The second case of rule 2: forced although cards that could build on it are still in play.
    for (const game of ['canister', 'american-canister']) expectSeen(game, 'forced, with dead builders in play');
    // The third case: where only whole piles move, builders that lie on a card or would wait for it.
    expectSeen('canfield', 'forced, with stuck builders in play');
    for (const game of ['canister', 'american-canister']) {
      expectSeen(game, 'referee: tableau -> tableau (run)');
      expectSeen(game, 'referee: tableau -> tableau (space) (run)');
    }
    expectSeen('british-canister', 'referee: tableau -> tableau (space)');
    expectSeen('canfield', 'referee: makes a card wait for itself (pruned)');
    expectSeen('canfield', 'referee: makes a card wait for itself through another pile (pruned)');
    for (const game of ['canfield', 'canfield-relaxed', 'canfield-sequences']) {
      expectSeen(game, 'referee: waste -> foundation after dealing, reached through a pile (rule 11)');
    }
    for (const game of ['storehouse', 'canfield', 'canfield-relaxed', 'canfield-sequences']) {
      expectSeen(game, 'engine: deals before a waste card');
      expectSeen(game, 'engine: redeal before a waste card');
      expectSeen(game, 'referee: waste -> tableau');
      expectSeen(game, 'referee: waste -> tableau after dealing');
      expectSeen(game, 'referee: waste -> foundation after dealing');
    }
    // Rule 15 (canfield-sequences drawing one): waste cards left for later, onto a pile and home.
    expectSeen('canfield-sequences', 'referee: waste -> tableau left for later after dealing (rule 15)');
    expectSeen('canfield-sequences', 'referee: waste -> foundation left for later after dealing (rule 15)');
    // Rule 16 (Storehouse with unlimited redeals): talon cards into a space left for later.
    expectSeen('storehouse', 'referee: waste -> tableau left for later after dealing (rule 16)');
    expectSeen('storehouse', 'referee: reserve -> tableau (space)');
    expectSeen('storehouse', 'referee: dealt past a safe foundation card (pruned)');
    expectSeen('storehouse', 'referee: waste -> tableau (space)');
    expectSeen('storehouse', 'forced build');
    for (const game of ['canfield', 'canfield-sequences']) expectSeen(game, 'engine: auto fill');
    expectSeen('canfield-relaxed', 'referee: foundation -> tableau');
    expectSeen('canfield-relaxed', 'referee: foundation -> tableau (space)');
    expectSeen('canfield-sequences', 'referee: tableau -> tableau (space) (run)');
  });
});
