import {
  type Card,
  cardRank,
  cardSuit,
  formatCard,
  formatCards,
  formatRank,
  makeCard,
  orderedDeck,
  SUITS,
  tryParseCard,
  tryParseRank,
} from '../cards/card';
import { fail, shown, shownJson } from '../errors';
import { autoFillsFromReserve, changedOptions, deckSize, PRESETS, resolveRules, type Rules, rulesToJson, stockSize, validateRules } from './rules';
import { fixedBase, isBuilt, rankAtOrder } from './order';

/**
 * A position: everything on the table, plus the rules it is played under. Piles are listed bottom
 * to top (the last card is the one you can take); the stock's last card is the next one dealt.
 * Foundations are counted per suit (C D H S): foundation s holds the first `foundations[s]` ranks of
 * suit s in the rules' order from `baseRank`.
 */
export interface Position {
  rules: Rules;
  baseRank: number;
  foundations: number[];
  reserve: Card[];
  tableau: Card[][];
  stock: Card[];
  waste: Card[];
  redealsUsed: number;
}

/** The position JSON of docs/formats.md, as parsed from or printed to a file. */
export interface PositionJson {
  game: string;
  rules?: Record<string, unknown>;
  foundations?: string[][];
  baseRank?: string;
  reserve?: string[];
  tableau?: string[][];
  stock?: string[];
  waste?: string[];
  redealsUsed?: number;
}

export function clonePosition(p: Position): Position {
  return {
    rules: p.rules,
    baseRank: p.baseRank,
    foundations: p.foundations.slice(),
    reserve: p.reserve.slice(),
    tableau: p.tableau.map((t) => t.slice()),
    stock: p.stock.slice(),
    waste: p.waste.slice(),
    redealsUsed: p.redealsUsed,
  };
}

/** The cards on foundation `suit`, bottom to top. */
export function foundationCards(p: Position, suit: number): Card[] {
  if (!Number.isInteger(suit) || suit < 0 || suit > 3) fail(`foundationCards needs a suit from 0 to 3 (C D H S), not ${shown(suit)}`);
  const cards: Card[] = [];
  for (let i = 0; i < p.foundations[suit]!; i++) cards.push(makeCard(suit, rankAtOrder(p.rules, p.baseRank, i)));
  return cards;
}

export const isWon = (p: Position): boolean => p.foundations.every((n) => n === p.rules.ranks);

/*
 * The same two for the public API (src/index.ts exports these under the plain names): they check the
 * position first, so that a malformed one is refused in one line. The unchecked ones above serve
 * validatePosition itself, and the referee and the formatters once they have validated a position.
 * (isWon, like applyMove and legalMoves, runs once per state in a search and is not checked.)
 */
export function checkedClonePosition(p: Position): Position {
  validatePosition(p);
  return clonePosition(p);
}
export function checkedFoundationCards(p: Position, suit: number): Card[] {
  validatePosition(p);
  return foundationCards(p, suit);
}

/** A deck order laid out as the rules say (see docs/rules.md), rules and deck validated first. */
export function dealFromDeck(rules: Rules, deck: readonly Card[]): Position {
  validateRules(rules);
  return layOut(rules, deck);
}

/** dealFromDeck for rules already validated (src/rules/deal.ts checks them before it makes the deck); the deck is checked here. */
export function layOut(rules: Rules, deck: readonly Card[]): Position {
  if (!Array.isArray(deck)) fail(`bad deck ${shown(deck)}: expected a list of card codes`);
  if (deck.length !== deckSize(rules)) fail(`the deck has ${deck.length} cards; ${rules.game} with ${rules.ranks} ranks needs ${deckSize(rules)}`);
  const seen = new Set<Card>();
  for (const c of deck) {
    if (!Number.isInteger(c)) fail(`bad deck: ${shown(c)} is not a card code (suit * 13 + rank)`);
    if (c < 0 || c >= 52 || cardRank(c) >= rules.ranks) fail(`card ${c >= 0 && c < 52 ? formatCard(c) : shown(c)} is not in a deck of ${rules.ranks} ranks per suit`);
    if (seen.has(c)) fail(`duplicate card ${formatCard(c)} in the deck`);
    seen.add(c);
  }
  const foundations = [0, 0, 0, 0];
  const tableau: Card[][] = Array.from({ length: rules.piles }, () => []);
  let cards = deck.slice();
  let baseRank = fixedBase(rules);
  if (rules.basesOut) {
    cards = cards.filter((c) => cardRank(c) !== baseRank);
    foundations.fill(1);
  }
  if (rules.pileCards === 'all') {
    cards.forEach((card, i) => tableau[i % rules.piles]!.push(card));
    return { rules, baseRank, foundations, reserve: [], tableau, stock: [], waste: [], redealsUsed: 0 };
  }
  let next = 0;
  const reserve = cards.slice(next, next + rules.reserve);
  next += rules.reserve;
  if (rules.base === 'dealt') {
    const first = cards[next++]!;
    baseRank = cardRank(first);
    foundations[cardSuit(first)] = 1;
  }
  for (let row = 0; row < rules.pileCards; row++) for (const pile of tableau) pile.push(cards[next++]!);
  const stock = cards.slice(next).reverse();
  return { rules, baseRank, foundations, reserve, tableau, stock, waste: [], redealsUsed: 0 };
}

const listOf = (value: unknown, what: string): unknown[] => {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) fail(`position: ${what} must be a list`);
  return value;
};

function cardsOf(value: unknown, what: string): Card[] {
  return listOf(value, what).map((text, i) => {
    const card = typeof text === 'string' ? tryParseCard(text) : -1;
    if (card < 0) fail(`position: bad card ${shownJson(text)} at ${what}[${i}]`);
    return card;
  });
}

/**
 * Parses and validates position JSON (text or an already parsed object). Every problem is refused
 * with a message that names the card or pile at fault.
 */
export function parsePosition(input: string | PositionJson | Record<string, unknown>): Position {
  let json: Record<string, unknown>;
  if (typeof input === 'string') {
    try {
      json = JSON.parse(input) as Record<string, unknown>;
    } catch (e) {
      fail(`position: malformed JSON (${(e as Error).message})`);
    }
  } else json = input as Record<string, unknown>;
  if (json === null || typeof json !== 'object' || Array.isArray(json)) fail('position: expected a JSON object');
  const allowed = new Set(['game', 'rules', 'foundations', 'baseRank', 'reserve', 'tableau', 'stock', 'waste', 'redealsUsed']);
  for (const key of Object.keys(json)) if (!allowed.has(key)) fail(`position: unknown key "${key}"`);
  if (typeof json.game !== 'string') fail('position: "game" must name a preset, e.g. "canfield"');
  if (json.rules !== undefined && (typeof json.rules !== 'object' || json.rules === null || Array.isArray(json.rules))) {
    fail('position: "rules" must be an object of rule options');
  }
  // `patience games NAME` prints every option with the game: pasted as they are, the game must agree,
  // and options equal to the preset's are no overrides (a stockless game's draw is refused as one).
  const given = (json.rules ?? {}) as Record<string, unknown>;
  if (given.game !== undefined && given.game !== json.game) fail(`position: "rules" name the game ${JSON.stringify(given.game)}, but the position is ${JSON.stringify(json.game)}`);
  const rules = resolveRules(json.game, changedOptions(json.game, given));

  // Read every card text first, so that a bad card is named before anything that depends on it.
  const tableauRaw = listOf(json.tableau, 'tableau');
  const tableau = tableauRaw.map((pile, i) => cardsOf(pile, `tableau[${i}]`));
  while (tableau.length < rules.piles && tableauRaw.length === 0) tableau.push([]);
  const reserve = cardsOf(json.reserve, 'reserve');
  const stock = cardsOf(json.stock, 'stock');
  const waste = cardsOf(json.waste, 'waste');
  const foundationPiles = listOf(json.foundations, 'foundations').map((pile, i) => cardsOf(pile, `foundations[${i}]`));
  if (foundationPiles.length > 4) fail(`position: ${foundationPiles.length} foundations given; there are 4`);
  let baseRank = fixedBase(rules);
  let baseFrom = `the rules of ${rules.game}`;
  if (json.baseRank !== undefined) {
    const r = typeof json.baseRank === 'string' || typeof json.baseRank === 'number' ? tryParseRank(String(json.baseRank)) : -1;
    if (r < 0 || r >= rules.ranks) fail(`position: bad baseRank ${JSON.stringify(json.baseRank)}`);
    if (baseRank >= 0 && r !== baseRank) fail(`position: baseRank ${formatRank(r)} contradicts ${baseFrom} (base ${formatRank(baseRank)})`);
    baseRank = r;
    baseFrom = 'baseRank';
  }
  for (const pile of foundationPiles) {
    if (pile.length === 0) continue;
    const r = cardRank(pile[0]!);
    if (baseRank < 0) {
      baseRank = r;
      baseFrom = `foundation ${formatCard(pile[0]!)}`;
    } else if (r !== baseRank) {
      fail(`position: foundation starting ${formatCard(pile[0]!)} does not start at the base rank ${formatRank(baseRank)} (from ${baseFrom})`);
    }
  }
  if (baseRank < 0) fail('position: baseRank is needed when no foundation holds a card');

  const foundations = [0, 0, 0, 0];
  const suitSeen = [false, false, false, false];
  for (const [i, pile] of foundationPiles.entries()) {
    if (pile.length === 0) continue;
    const suit = cardSuit(pile[0]!);
    if (suitSeen[suit]) fail(`position: two foundations of suit ${SUITS[suit]}`);
    suitSeen[suit] = true;
    pile.forEach((card, k) => {
      const want = makeCard(suit, rankAtOrder(rules, baseRank, k));
      if (card !== want || k >= rules.ranks) fail(`position: foundations[${i}] has ${formatCard(card)} where ${formatCard(want)} belongs`);
    });
    foundations[suit] = pile.length;
  }

  const redealsUsed = json.redealsUsed ?? 0;
  if (typeof redealsUsed !== 'number' || !Number.isInteger(redealsUsed) || redealsUsed < 0) {
    fail(`position: redealsUsed must be a whole number, not ${JSON.stringify(redealsUsed)}`);
  }
  const position: Position = {
    rules,
    baseRank,
    foundations,
    reserve,
    tableau,
    stock,
    waste,
    redealsUsed,
  };
  validatePosition(position);
  return position;
}

/** Checks a position against its rules; throws a PatienceError naming the first problem found. */
export function validatePosition(p: Position): void {
  // The shape first, so that a hand-built position gets a message and not a TypeError.
  if (typeof p !== 'object' || p === null) fail(`position: expected a position object, not ${shown(p)}`);
  const isCards = (v: unknown): boolean => Array.isArray(v);
  for (const key of ['foundations', 'reserve', 'stock', 'waste'] as const) if (!isCards(p[key])) fail(`position: ${key} must be a list`);
  if (!Array.isArray(p.tableau) || !p.tableau.every(isCards)) fail('position: tableau must be a list of piles, each a list of cards');
  // Position JSON (formatPosition's form: cards and ranks as text, foundations as lists of cards) is
  // a different thing, easy to pass by mistake from plain JavaScript.
  const text = (v: unknown) => typeof v === 'string' || Array.isArray(v);
  if (typeof p.baseRank === 'string' || [p.reserve, p.stock, p.waste, p.foundations, ...p.tableau].some((list) => (list as unknown[]).some(text))) {
    fail('position: its cards are text, as in position JSON (formatPosition): read it with parsePosition first');
  }
  if (!Number.isSafeInteger(p.redealsUsed) || p.redealsUsed < 0) fail(`position: redealsUsed ${shown(p.redealsUsed)} is not a count (a whole number from 0)`);
  validateRules(p.rules);
  const { rules } = p;
  const where = new Map<Card, string>();
  const place = (card: Card, name: string) => {
    if (!Number.isInteger(card)) fail(`position: ${name} holds ${shown(card)}, which is not a card code (suit * 13 + rank)`);
    if (card < 0 || card >= 52 || cardRank(card) >= rules.ranks) fail(`position: card ${card >= 0 && card < 52 ? formatCard(card) : shown(card)} (${name}) is not in a deck of ${rules.ranks} ranks per suit`);
    const before = where.get(card);
    if (before !== undefined) fail(`position: duplicate card ${formatCard(card)} (${before} and ${name})`);
    where.set(card, name);
  };
  if (!Number.isInteger(p.baseRank) || p.baseRank < 0 || p.baseRank >= rules.ranks) fail(`position: bad base rank ${p.baseRank} for a deck of ${rules.ranks} ranks per suit`);
  if (rules.base !== 'dealt' && p.baseRank !== rules.base) fail(`position: base rank ${formatRank(p.baseRank)} contradicts the rules of ${rules.game} (base ${formatRank(rules.base)})`);
  if (p.foundations.length !== 4) fail('position: there must be 4 foundations');
  for (let s = 0; s < 4; s++) {
    const n = p.foundations[s]!;
    if (!Number.isInteger(n) || n < 0 || n > rules.ranks) fail(`position: foundation ${SUITS[s]} holds ${n} cards`);
    for (const c of foundationCards(p, s)) place(c, `foundation ${SUITS[s]}`);
    // With cards back from the foundations, a base card may have left its foundation too.
    if (rules.basesOut && !rules.foundationToTableau && n === 0) fail(`position: foundation ${SUITS[s]} is empty, but ${rules.game} starts every foundation with its base card`);
  }
  if (p.tableau.length !== rules.piles) fail(`position: ${p.tableau.length} tableau piles given; ${rules.game} has ${rules.piles}`);
  p.reserve.forEach((c) => place(c, 'reserve'));
  p.tableau.forEach((pile, i) => pile.forEach((c) => place(c, `tableau ${i + 1}`)));
  p.stock.forEach((c) => place(c, 'stock'));
  p.waste.forEach((c) => place(c, 'waste'));
  const missing = orderedDeck(rules.ranks).filter((c) => !where.has(c));
  if (missing.length > 0) fail(`position: missing card(s) ${formatCards(missing.slice(0, 8))}${missing.length > 8 ? ' ...' : ''}`);

  if (rules.reserve === 0 && p.reserve.length > 0) fail(`position: ${rules.game} has no reserve, but the reserve holds ${p.reserve.length} card(s)`);
  const hasStock = stockSize(rules) > 0;
  if (!hasStock && (p.stock.length > 0 || p.waste.length > 0)) fail(`position: ${rules.game} has no stock or waste, but cards are there`);
  if (rules.redeals !== 'unlimited' && p.redealsUsed > rules.redeals) fail(`position: redealsUsed ${p.redealsUsed} is more than the ${rules.redeals} redeal(s) allowed`);
  // Piles dealt one card each grow only by building, so under these rules each is a built sequence.
  if (rules.pileCards !== 'all' && rules.pileCards <= 1) {
    p.tableau.forEach((pile, i) => {
      if (!isBuilt(rules, p.baseRank, pile)) fail(`position: tableau ${i + 1} (${formatCards(pile)}) is not a built sequence, which ${rules.game} piles always are`);
    });
  }
  if (autoFillsFromReserve(rules) && p.reserve.length > 0) {
    const empty = p.tableau.findIndex((pile) => pile.length === 0);
    if (empty >= 0) fail(`position: tableau ${empty + 1} is empty while the reserve has cards (${rules.game} fills a space from the reserve at once)`);
  }
}

/** The rule options of `rules` that differ from its preset's. */
export function rulesOverrides(rules: Rules): Record<string, unknown> {
  return changedOptions(rules.game, rulesToJson(rules));
}

/** The position JSON of a position (foundations in suit order C D H S). Round-trips with parsePosition. */
export function formatPosition(p: Position): PositionJson {
  validatePosition(p);
  const overrides = rulesOverrides(p.rules);
  const json: PositionJson = { game: p.rules.game };
  if (Object.keys(overrides).length > 0) json.rules = overrides;
  json.foundations = [0, 1, 2, 3].map((s) => foundationCards(p, s).map(formatCard));
  json.baseRank = formatRank(p.baseRank);
  if (p.rules.reserve > 0 || p.reserve.length > 0) json.reserve = p.reserve.map(formatCard);
  json.tableau = p.tableau.map((pile) => pile.map(formatCard));
  if (stockSize(p.rules) > 0) {
    json.stock = p.stock.map(formatCard);
    json.waste = p.waste.map(formatCard);
    json.redealsUsed = p.redealsUsed;
  }
  return json;
}

/** A readable multi-line picture of a position, for terminals. */
export function describePosition(p: Position): string {
  validatePosition(p);
  const { rules } = p;
  const lines: string[] = [];
  const redeals = rules.redeals === 'unlimited' ? 'unlimited' : String(rules.redeals);
  lines.push(`${rules.game}   base ${formatRank(p.baseRank)}   ${rules.ranks * 4} cards`);
  const f = [0, 1, 2, 3].map((s) => {
    const cards = foundationCards(p, s);
    return `${SUITS[s]}: ${cards.length === 0 ? '-' : cards.length <= 2 ? formatCards(cards) : `${formatCard(cards[0]!)}..${formatCard(cards[cards.length - 1]!)}`}`;
  });
  lines.push(`foundations  ${f.join('   ')}`);
  if (rules.reserve > 0) lines.push(`reserve (${p.reserve.length})  ${p.reserve.length ? formatCards(p.reserve) + '   <- top' : '-'}`);
  p.tableau.forEach((pile, i) => lines.push(`t${i + 1}  ${pile.length ? formatCards(pile) : '-'}`));
  if (stockSize(rules) > 0) {
    lines.push(`stock (${p.stock.length})  ${p.stock.length ? 'next: ' + formatCards(p.stock.slice().reverse()) : '-'}`);
    lines.push(`waste (${p.waste.length})  ${p.waste.length ? formatCards(p.waste) + '   <- top' : '-'}`);
    lines.push(`redeals used ${p.redealsUsed} of ${redeals}, draw ${rules.draw}`);
  }
  return lines.join('\n');
}

export { PRESETS };
