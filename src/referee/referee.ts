import { type Card, cardSuit, formatCard, formatCards, formatRank, makeCard, SUITS } from '../cards/card';
import { fail, shown, shownJson } from '../errors';
import type { Move, Place } from '../rules/move';
import { formatMove, parseMove as parseMoveInPosition, parseMoveLines } from '../rules/notation';
import { buildsOn, cardOrder, isBuilt, rankAtOrder } from '../rules/order';
import { clonePosition, isWon, type Position, validatePosition } from '../rules/position';
import { autoFillsFromReserve } from '../rules/rules';

/**
 * The referee: the slow, obviously correct judge of every move and every solution. It is written
 * for clarity, not speed, and shares no move-generation code with the solver, so that a solver bug
 * cannot hide behind the same bug here.
 *
 * Legality is written twice on purpose: `legalMoves` builds the moves from the rules, source by
 * source, and `checkMove` judges one given move, naming the rule it breaks. The tests check that the
 * two agree on every candidate move of many random positions.
 */

export { isWon };

/** The outcome of replaying a move list. */
export interface ReplayResult {
  /** Every move was legal. */
  legal: boolean;
  /** The position after the legal moves is won. */
  won: boolean;
  /** How many moves were applied (all of them when legal). */
  movesApplied: number;
  /** 0-based index of the first illegal move. */
  failedAt?: number;
  /** Why that move is illegal, in one line. */
  reason?: string;
  /** The position after the last legal move. */
  final: Position;
}

// ---------------------------------------------------------------------------------------------
// Small facts about a position, each one rule of RULES.md.

const top = <T>(pile: readonly T[]): T | undefined => pile[pile.length - 1];

/** The card on top of foundation `suit`, or undefined when it is empty. */
function foundationTop(p: Position, suit: number): Card | undefined {
  const n = p.foundations[suit]!;
  return n === 0 ? undefined : makeCard(suit, rankAtOrder(p.rules, p.baseRank, n - 1));
}

/** A card goes to the foundation of its suit when it is the next one in the order from the base. */
const goesToFoundation = (p: Position, card: Card): boolean => p.foundations[cardSuit(card)] === cardOrder(p.rules, p.baseRank, card);

/** The highest rank of the order (a King when the base is the Ace): the `kings` space policy. */
const isHighest = (p: Position, card: Card): boolean => cardOrder(p.rules, p.baseRank, card) === p.rules.ranks - 1;

function redealsLeft(p: Position): boolean {
  return p.rules.redeals === 'unlimited' || p.redealsUsed < p.rules.redeals;
}

/**
 * Why a space (an empty tableau pile) may not be filled, right now, by a card or run whose bottom
 * card is `card`, coming from `from`; undefined when it may. A foundation card (canfield-relaxed's
 * foundation-to-tableau) fills a space only under a rule that takes cards from anywhere: `any`, or
 * `kings` for a card of the highest rank; the other rules name their sources and it is not one.
 */
function spaceRefusal(p: Position, from: Place, card: Card): string | undefined {
  const { rules } = p;
  switch (rules.spaces) {
    case 'any':
      return undefined;
    case 'kings':
      return isHighest(p, card) ? undefined : `only a card of the highest rank fills a space in ${rules.game}, and ${formatCard(card)} is not one`;
    case 'reserve-or-waste':
      return from.area === 'reserve' || from.area === 'waste'
        ? undefined
        : `only the top card of the reserve or the waste fills a space in ${rules.game}`;
    case 'auto-reserve-then-waste':
      if (p.reserve.length > 0) return `spaces are filled from the reserve automatically while it has cards`;
      return from.area === 'waste' ? undefined : `once the reserve is empty only the waste's top card fills a space in ${rules.game}`;
    case 'auto-reserve-then-any':
      if (p.reserve.length > 0) return `spaces are filled from the reserve automatically while it has cards`;
      return from.area === 'waste' || from.area === 'tableau'
        ? undefined
        : `once the reserve is empty a space is filled from the waste or the tableau in ${rules.game}`;
  }
}

/** The reserve card that fills tableau pile `pile` at once after a move emptied it, if the rules say so. */
function autoFillAfter(p: Position, pile: number): { card: Card; pile: number } | undefined {
  if (!autoFillsFromReserve(p.rules) || p.reserve.length === 0) return undefined;
  return { card: top(p.reserve)!, pile };
}

// ---------------------------------------------------------------------------------------------
// The legal moves, built from the rules.

/**
 * Every legal move from `p`, in a fixed order: moves to foundations, moves onto the tableau, then
 * deal and redeal. A move that empties a pile under an automatic space rule carries its `autoFill`.
 */
export function legalMoves(p: Position): Move[] {
  const { rules } = p;
  const moves: Move[] = [];

  // Every card or run that may leave its place, with where it comes from.
  interface Source {
    from: Place;
    cards: Card[];
  }
  const sources: Source[] = [];
  const reserveTop = top(p.reserve);
  if (reserveTop !== undefined) sources.push({ from: { area: 'reserve' }, cards: [reserveTop] });
  const wasteTop = top(p.waste);
  if (wasteTop !== undefined) sources.push({ from: { area: 'waste' }, cards: [wasteTop] });
  p.tableau.forEach((pile, index) => {
    for (let count = 1; count <= pile.length; count++) {
      const run = pile.slice(pile.length - count);
      if (!isBuilt(rules, p.baseRank, run)) break;
      sources.push({ from: { area: 'tableau', index }, cards: run });
    }
  });
  if (rules.foundationToTableau) {
    for (let suit = 0; suit < 4; suit++) {
      const card = foundationTop(p, suit);
      if (card !== undefined) sources.push({ from: { area: 'foundation' }, cards: [card] });
    }
  }

  const make = (source: Source, to: Place): Move => {
    const move: Move = { kind: 'move', card: source.cards[0]!, count: source.cards.length, from: source.from, to };
    const from = source.from;
    if (from.area === 'tableau' && source.cards.length === p.tableau[from.index]!.length) {
      const fill = autoFillAfter(p, from.index);
      if (fill) move.autoFill = fill;
    }
    return move;
  };

  // To the foundations: one card at a time, the next of its suit.
  for (const source of sources) {
    if (source.cards.length !== 1 || source.from.area === 'foundation') continue;
    if (goesToFoundation(p, source.cards[0]!)) moves.push(make(source, { area: 'foundation' }));
  }

  // Onto the tableau.
  for (const source of sources) {
    const { from, cards } = source;
    const count = cards.length;
    if (from.area === 'tableau') {
      const pileLength = p.tableau[from.index]!.length;
      if (rules.move === 'single' && count !== 1) continue;
      if (rules.move === 'whole-pile' && count !== pileLength) continue;
    }
    p.tableau.forEach((pile, index) => {
      if (from.area === 'tableau' && from.index === index) return;
      const onto = top(pile);
      const fits = onto === undefined ? spaceRefusal(p, from, cards[0]!) === undefined : buildsOn(rules, p.baseRank, cards[0]!, onto);
      if (fits) moves.push(make(source, { area: 'tableau', index }));
    });
  }

  if (p.stock.length > 0) moves.push({ kind: 'deal' });
  if (p.stock.length === 0 && p.waste.length > 0 && redealsLeft(p)) moves.push({ kind: 'redeal' });
  return moves;
}

// ---------------------------------------------------------------------------------------------
// One given move, judged.

function isCard(p: Position, card: unknown): card is Card {
  return typeof card === 'number' && Number.isInteger(card) && card >= 0 && card < 52 && card % 13 < p.rules.ranks;
}

function checkPlace(p: Position, place: Place | undefined, role: string): string | undefined {
  if (!place || typeof place !== 'object') return `the move has no ${role} place`;
  switch (place.area) {
    case 'reserve':
    case 'waste':
    case 'foundation':
      return undefined;
    case 'tableau':
      if (!Number.isInteger(place.index) || place.index < 0 || place.index >= p.tableau.length) {
        return `there is no tableau pile ${Number.isInteger(place.index) ? place.index + 1 : shown(place.index)} (${p.rules.game} has ${p.tableau.length})`;
      }
      return undefined;
    default:
      return `unknown ${role} place ${shownJson((place as { area: unknown }).area)}`;
  }
}

/** The cards a move takes from its source, or the reason it cannot take them. */
function takenCards(p: Position, move: Extract<Move, { kind: 'move' }>): Card[] | string {
  const { card, count, from } = move;
  const name = formatCard(card);
  switch (from.area) {
    case 'reserve':
    case 'waste': {
      const pile = from.area === 'reserve' ? p.reserve : p.waste;
      const t = top(pile);
      if (t === undefined) return `the ${from.area} is empty`;
      if (count !== 1) return `only one card at a time comes from the ${from.area}`;
      if (t !== card) return `the ${from.area}'s top card is ${formatCard(t)}, not ${name}`;
      return [card];
    }
    case 'foundation': {
      if (!p.rules.foundationToTableau) return `cards never leave the foundations in ${p.rules.game}`;
      const t = foundationTop(p, cardSuit(card));
      if (t === undefined) return `foundation ${SUITS[cardSuit(card)]} is empty`;
      if (t !== card) return `the top of foundation ${SUITS[cardSuit(card)]} is ${formatCard(t)}, not ${name}`;
      if (count !== 1) return `only one card at a time comes from a foundation`;
      return [card];
    }
    case 'tableau': {
      const pile = p.tableau[from.index]!;
      if (pile.length === 0) return `tableau ${from.index + 1} is empty`;
      if (count > pile.length) return `tableau ${from.index + 1} has only ${pile.length} card(s), not ${count}`;
      const cards = pile.slice(pile.length - count);
      if (cards[0] !== card) {
        return count === 1
          ? `the top card of tableau ${from.index + 1} is ${formatCard(cards[0]!)}, not ${name}`
          : `the top ${count} cards of tableau ${from.index + 1} start with ${formatCard(cards[0]!)}, not ${name}`;
      }
      if (!isBuilt(p.rules, p.baseRank, cards)) return `${formatCards(cards)} (from tableau ${from.index + 1}) is not a built run`;
      return cards;
    }
  }
}

/**
 * Why `move` is illegal in `p`, in one line, or undefined when it is legal. An `autoFill` the move
 * lacks is not a fault (it is implied by the rules); one it names must be the one that happens.
 */
export function checkMove(p: Position, move: Move): string | undefined {
  const { rules } = p;
  if (!move || typeof move !== 'object') return 'not a move';
  if (move.kind === 'deal') return p.stock.length > 0 ? undefined : 'the stock is empty, nothing to deal';
  if (move.kind === 'redeal') {
    if (p.stock.length > 0) return `the stock still has ${p.stock.length} card(s); redeal only when it is empty`;
    if (p.waste.length === 0) return 'the stock and waste are both empty, so a redeal would change nothing';
    if (!redealsLeft(p)) return `no redeals left: ${rules.game} allows ${rules.redeals} and ${p.redealsUsed} were used`;
    return undefined;
  }
  if (move.kind !== 'move') return `unknown move kind ${shownJson((move as { kind: unknown }).kind)}`;
  const { card, count, from, to } = move;
  if (!isCard(p, card)) return `${shownJson(card)} is not a card of this ${rules.ranks * 4}-card deck`;
  if (!Number.isInteger(count) || count < 1) return `bad card count ${shownJson(count)}`;
  const placeProblem = checkPlace(p, from, 'source') ?? checkPlace(p, to, 'destination');
  if (placeProblem) return placeProblem;
  if (to.area === 'reserve' || to.area === 'waste') return `cards never go to the ${to.area}`;
  if (from.area === 'tableau' && to.area === 'tableau' && from.index === to.index) return 'a pile cannot move onto itself';
  if (from.area === 'foundation' && to.area === 'foundation') return 'a foundation card cannot go to a foundation';

  const cards = takenCards(p, move);
  if (typeof cards === 'string') return cards;
  const name = formatCard(card);

  if (to.area === 'foundation') {
    if (count !== 1) return 'only one card at a time goes to a foundation';
    const suit = cardSuit(card);
    if (!goesToFoundation(p, card)) {
      const n = p.foundations[suit]!;
      if (n === rules.ranks) return `foundation ${SUITS[suit]} is complete`;
      const want = makeCard(suit, rankAtOrder(rules, p.baseRank, n));
      return `${name} is not the next card of foundation ${SUITS[suit]} (that is ${formatCard(want)})`;
    }
  } else {
    if (from.area === 'tableau') {
      const pileLength = p.tableau[from.index]!.length;
      if (rules.move === 'single' && count !== 1) return `only single cards move between tableau piles in ${rules.game}`;
      if (rules.move === 'whole-pile' && count !== pileLength) {
        return `only a whole pile moves onto another pile in ${rules.game} (tableau ${from.index + 1} has ${pileLength} card(s), not ${count})`;
      }
    }
    const onto = top(p.tableau[to.index]!);
    if (onto === undefined) {
      const refusal = spaceRefusal(p, from, card);
      if (refusal) return `tableau ${to.index + 1} is empty and ${refusal}`;
    } else if (!buildsOn(rules, p.baseRank, card, onto)) {
      return `${name} does not build on ${formatCard(onto)} (${describeBuild(p)})`;
    }
  }

  // An automatic fill, if the move empties a pile, must be the one the rules make.
  const emptied = from.area === 'tableau' && count === p.tableau[from.index]!.length ? from.index : -1;
  const fill = emptied >= 0 ? autoFillAfter(p, emptied) : undefined;
  if (move.autoFill !== undefined) {
    const given = move.autoFill;
    if (typeof given !== 'object' || given === null) return `bad automatic fill ${shown(given)}: expected { card, pile }`;
    if (!fill) return `no card fills a space automatically after this move, but the move says ${describeFill(given)}`;
    if (given.card !== fill.card || given.pile !== fill.pile) return `the automatic fill is ${describeFill(fill)}, not ${describeFill(given)}`;
  }
  return undefined;
}

const describeFill = (fill: { card: unknown; pile: unknown }): string =>
  `${typeof fill.card === 'number' ? formatCard(fill.card) : String(fill.card)} reserve -> t${typeof fill.pile === 'number' ? fill.pile + 1 : '?'}`;

function describeBuild(p: Position): string {
  const { rules } = p;
  const suits = { 'any-suit': 'regardless of suit', 'alternate-colors': 'in alternating colours', 'same-suit': 'in suit' }[rules.build];
  const order = rules.wrap ? 'round the corner' : `in the order that starts at ${formatRank(p.baseRank)}`;
  return `${rules.game} builds down by one rank ${suits}, ${order}`;
}

/**
 * The position after `move`, a new object (`p` is not changed). Throws a PatienceError naming the
 * move and why it is illegal. A move without `autoFill` whose rules fill the space from the reserve
 * is accepted, and the fill is made.
 */
export function applyMove(p: Position, move: Move): Position {
  const reason = checkMove(p, move);
  if (reason !== undefined) fail(`illegal move ${safeFormat(move)}: ${reason}`);
  const next = clonePosition(p);
  if (move.kind === 'deal') {
    const n = Math.min(p.rules.draw, next.stock.length);
    // One at a time from the stock's top onto the waste, so the last dealt ends on top.
    for (let i = 0; i < n; i++) next.waste.push(next.stock.pop()!);
    return next;
  }
  if (move.kind === 'redeal') {
    // The waste turned face down: its bottom card becomes the stock's top, the next dealt.
    next.stock = next.waste.reverse();
    next.waste = [];
    next.redealsUsed++;
    return next;
  }
  const { from, to, count } = move;
  let cards: Card[];
  if (from.area === 'tableau') cards = next.tableau[from.index]!.splice(-count, count);
  else if (from.area === 'reserve') cards = [next.reserve.pop()!];
  else if (from.area === 'waste') cards = [next.waste.pop()!];
  else {
    cards = [move.card];
    next.foundations[cardSuit(move.card)]!--;
  }
  if (to.area === 'foundation') next.foundations[cardSuit(cards[0]!)]!++;
  else if (to.area === 'tableau') next.tableau[to.index]!.push(...cards);
  if (from.area === 'tableau' && next.tableau[from.index]!.length === 0) {
    const fill = autoFillAfter(next, from.index);
    if (fill) next.tableau[from.index]!.push(next.reserve.pop()!);
  }
  return next;
}

function safeFormat(move: Move): string {
  try {
    return `"${formatMove(move)}"`;
  } catch {
    return shownJson(move);
  }
}

/**
 * Replays `moves` from `p`, stopping at the first illegal one. Never throws for an illegal move:
 * the result says which move failed (0-based) and why. The start position is validated first.
 */
export function replay(p: Position, moves: readonly Move[]): ReplayResult {
  validatePosition(p);
  if (!Array.isArray(moves)) fail(`replay needs a list of moves, not ${shown(moves)}`);
  let position = p;
  for (let i = 0; i < moves.length; i++) {
    const move = moves[i]!;
    const reason = checkMove(position, move);
    if (reason !== undefined) {
      return { legal: false, won: isWon(position), movesApplied: i, failedAt: i, reason, final: position };
    }
    position = applyMove(position, move);
  }
  return { legal: true, won: isWon(position), movesApplied: moves.length, final: position };
}

/**
 * Parses a move list (see parseMoveLines in src/rules/notation.ts). With the position the moves
 * start from, each line is read in the position it is played from, so `t4 -> f` or `QS t1 -> t3`
 * (the run's length found from the pile) are enough.
 */
export function parseMoves(text: string, position?: Position): Move[] {
  if (position !== undefined) validatePosition(position);
  return parseMoveLines(text, position, applyMove);
}

/**
 * One move (the notation of docs/formats.md), read in `position` when given, which is checked
 * first: the public form of the notation layer's parser.
 */
export function parseMove(text: string, position?: Position): Move {
  if (position !== undefined) validatePosition(position);
  return parseMoveInPosition(text, position);
}
