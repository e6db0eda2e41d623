import { type Card, formatCard, tryParseCard } from '../cards/card';
import { fail, PatienceError, shown, shownJson } from '../errors';
import type { Move, Place } from './move';
import type { Position } from './position';

/**
 * Move notation (docs/formats.md):
 *   deal | redeal | CARD FROM -> TO [(N cards)] [[CARD reserve -> tK auto]]
 * Places print as t1..tN (1-based), reserve, waste, f; parsing also takes r, w, foundation,
 * tableau 3 and is case-insensitive. Examples: `7H waste -> t2`, `3C t4 -> f`,
 * `QS t1 -> t3 (4 cards)`, `5H f -> t2`, `3C t4 -> f [KS reserve -> t4 auto]`.
 */

type CardMove = Extract<Move, { kind: 'move' }>;

export function formatPlace(place: Place): string {
  switch (place?.area) {
    case 'tableau':
      if (!Number.isInteger(place.index) || place.index < 0) fail(`bad place: tableau index ${shown(place.index)}`);
      return `t${place.index + 1}`;
    case 'foundation':
      return 'f';
    case 'reserve':
    case 'waste':
      return place.area;
    default:
      return fail(`bad place ${shownJson(place)}: expected tableau, foundation, reserve or waste`);
  }
}

export function formatMove(move: Move): string {
  if (typeof move !== 'object' || move === null) fail(`bad move ${shown(move)}: expected a Move object`);
  if (move.kind === 'deal' || move.kind === 'redeal') return move.kind;
  if (move.kind !== 'move') fail(`bad move: unknown kind ${shownJson((move as { kind: unknown }).kind)}`);
  let text = `${formatCard(move.card)} ${formatPlace(move.from)} -> ${formatPlace(move.to)}`;
  if (move.count !== 1) text += ` (${move.count} cards)`;
  if (move.autoFill) text += ` [${formatCard(move.autoFill.card)} reserve -> t${move.autoFill.pile + 1} auto]`;
  return text;
}

/** Parses a place name, or returns undefined when the text is not one. */
function tryParsePlace(text: string): Place | undefined {
  const t = text.trim().toLowerCase();
  if (t === 'r' || t === 'reserve') return { area: 'reserve' };
  if (t === 'w' || t === 'waste') return { area: 'waste' };
  if (t === 'f' || t === 'foundation' || t === 'foundations') return { area: 'foundation' };
  const m = /^(?:t|tableau)\s*(\d+)$/.exec(t);
  if (m) {
    const n = Number(m[1]);
    if (n >= 1) return { area: 'tableau', index: n - 1 };
  }
  return undefined;
}

export function parsePlace(text: string): Place {
  const place = tryParsePlace(text);
  if (!place) fail(`bad place "${text.trim()}": expected t1, t2, ... (or tableau 1), reserve (r), waste (w) or f (foundation)`);
  return place;
}

/** Splits "7H waste" or "waste" into an optional card and a place. */
function parseEnd(text: string, what: string, said: string): { card: Card; place: Place } {
  const t = text.trim();
  const place = tryParsePlace(t);
  if (place) return { card: -1, place };
  const m = /^(\S+)\s+(.+)$/.exec(t);
  const card = m ? tryParseCard(m[1]!) : -1;
  const named = m ? tryParsePlace(m[2]!) : undefined;
  if (!m || card < 0 || !named) {
    fail(`bad move ${said}: cannot read the ${what} ${JSON.stringify(t.length > 30 ? `${t.slice(0, 27)}...` : t)} (expected a card and a place, e.g. 7H waste or QS t1)`);
  }
  return { card, place: named };
}

/** The card a position holds at `place` for a move of `count` cards, or -1. */
function cardAt(position: Position, place: Place, count: number): Card {
  switch (place.area) {
    case 'reserve':
      return count === 1 ? (position.reserve[position.reserve.length - 1] ?? -1) : -1;
    case 'waste':
      return count === 1 ? (position.waste[position.waste.length - 1] ?? -1) : -1;
    case 'tableau': {
      const pile = position.tableau[place.index];
      return pile && count <= pile.length ? pile[pile.length - count]! : -1;
    }
    case 'foundation':
      return -1;
  }
}

/**
 * Parses one move. Without a position the card must be named and the count defaults to 1. With
 * the position the move is played from, the card may be left out (the top card of the place, or the
 * bottom of the `(N cards)` run) and a tableau run's length is found from the card named. The
 * result is not checked for legality: that is the referee's job (applyMove, replay).
 */
export function parseMove(text: string, position?: Position): Move {
  if (typeof text !== 'string') fail(`bad move ${shown(text)}: expected text such as "7H waste -> t2"`);
  const whole = text.trim();
  // The move as messages quote it: escaped and cut short, so a line of binary junk stays one short line.
  const said = JSON.stringify(whole.length > 60 ? `${whole.slice(0, 57)}...` : whole);
  let t = whole.toLowerCase();
  if (t === 'deal') return { kind: 'deal' };
  if (t === 'redeal') return { kind: 'redeal' };

  let autoFill: CardMove['autoFill'];
  const bracket = /\[([^\]]*)\]\s*$/.exec(t);
  if (bracket) {
    const m = /^(\S+)\s+(?:r|reserve)\s*(?:->|→)\s*(.+?)\s+auto$/.exec(bracket[1]!.trim());
    const card = m ? tryParseCard(m[1]!) : -1;
    const pile = m ? tryParsePlace(m[2]!) : undefined;
    if (!m || card < 0 || !pile || pile.area !== 'tableau') {
      fail(`bad move ${said}: the automatic fill must read like [KS reserve -> t4 auto]`);
    }
    autoFill = { card, pile: pile.index };
    t = t.slice(0, bracket.index).trim();
  }
  let count = -1;
  const countMatch = /\(\s*(\d+)\s*cards?\s*\)\s*$/.exec(t);
  if (countMatch) {
    count = Number(countMatch[1]);
    if (count < 1) fail(`bad move ${said}: a move takes at least one card`);
    if (count > 52) fail(`bad move ${said}: ${countMatch[1]} cards are more than a deck holds`);
    t = t.slice(0, countMatch.index).trim();
  }
  const parts = t.split(/->|→/);
  if (parts.length !== 2) fail(`bad move ${said}: expected deal, redeal or CARD FROM -> TO, e.g. 7H waste -> t2`);
  const source = parseEnd(parts[0]!, 'source', said);
  const to = tryParsePlace(parts[1]!);
  if (!to) fail(`bad move ${said}: bad destination "${parts[1]!.trim()}" (expected t1, t2, ..., f or foundation)`);

  let card = source.card;
  const from = source.place;
  if (card < 0) {
    if (!position) fail(`bad move ${said}: name the card moved (e.g. 7H waste -> t2)`);
    if (from.area === 'foundation') fail(`bad move ${said}: name the foundation card moved (e.g. 5H f -> t2)`);
    card = cardAt(position, from, count < 0 ? 1 : count);
    if (card < 0) fail(`bad move ${said}: there is no card to take at ${formatPlace(from)}`);
  }
  if (count < 0) {
    count = 1;
    if (position && from.area === 'tableau') {
      const pile = position.tableau[from.index] ?? [];
      const at = pile.lastIndexOf(card);
      if (at >= 0) count = pile.length - at;
    }
  }
  const move: CardMove = { kind: 'move', card, count, from, to };
  if (autoFill) move.autoFill = autoFill;
  return move;
}

/** A move list, one move a line, numbered from 1 (the form parseMoves reads back). */
export function formatMoves(moves: readonly Move[]): string {
  if (!Array.isArray(moves)) fail(`formatMoves: bad moves ${shown(moves)}: expected a list of moves`);
  return moves.map((m, i) => `${i + 1}. ${formatMove(m)}\n`).join('');
}

/**
 * Parses a move list: one move a line; blank lines and `#` comments are ignored, and a line may
 * start with its number (`12.`). Errors name the line. With a position and `advance` (the referee's
 * applyMove: the rules layer does not know the referee), each move is parsed in the position it is
 * played from, so cards and run lengths may be left out; once a move cannot be applied, the rest
 * are parsed without a position. The public `parseMoves` (src/referee/referee.ts) supplies `advance`.
 */
export function parseMoveLines(text: string, position?: Position, advance?: (p: Position, m: Move) => Position): Move[] {
  if (typeof text !== 'string') fail(`bad move list ${shown(text)}: expected text, one move a line`);
  const moves: Move[] = [];
  let current = position;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/#.*$/, '').trim().replace(/^\d+\s*[.)]\s*/, '');
    if (line.length === 0) return;
    let move: Move;
    try {
      move = parseMove(line, current);
    } catch (e) {
      if (e instanceof PatienceError) fail(`moves line ${i + 1}: ${e.message}`);
      throw e;
    }
    moves.push(move);
    if (current && advance) {
      try {
        current = advance(current, move);
      } catch (e) {
        if (!(e instanceof PatienceError)) throw e;
        current = undefined;
      }
    } else current = undefined;
  });
  return moves;
}

/** The JSON form of a move. Places are written as in the text notation (t1, reserve, waste, f). */
export type MoveJson =
  | { kind: 'deal' }
  | { kind: 'redeal' }
  | { kind: 'move'; card: string; count: number; from: string; to: string; autoFill?: { card: string; to: string } };

export function moveToJson(move: Move): MoveJson {
  if (move.kind === 'deal' || move.kind === 'redeal') return { kind: move.kind };
  const json: MoveJson = { kind: 'move', card: formatCard(move.card), count: move.count, from: formatPlace(move.from), to: formatPlace(move.to) };
  if (move.autoFill) json.autoFill = { card: formatCard(move.autoFill.card), to: `t${move.autoFill.pile + 1}` };
  return json;
}

export function moveFromJson(json: unknown): Move {
  const bad = (why: string): never => fail(`bad move JSON ${shownJson(json)}: ${why}`);
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return bad('expected an object');
  const o = json as Record<string, unknown>;
  const allowed = o.kind === 'move' ? ['kind', 'card', 'count', 'from', 'to', 'autoFill'] : ['kind'];
  for (const key of Object.keys(o)) if (!allowed.includes(key)) bad(`unknown key "${key}"`);
  if (o.kind === 'deal' || o.kind === 'redeal') return { kind: o.kind };
  if (o.kind !== 'move') return bad('"kind" must be "move", "deal" or "redeal"');
  const card = typeof o.card === 'string' ? tryParseCard(o.card) : -1;
  if (card < 0) bad('"card" must be a card such as "7H"');
  const count = o.count === undefined ? 1 : o.count;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 52) bad('"count" must be a whole number from 1 to 52');
  const from = typeof o.from === 'string' ? tryParsePlace(o.from) : undefined;
  if (!from) bad('"from" must be a place such as "t1", "reserve", "waste" or "f"');
  const to = typeof o.to === 'string' ? tryParsePlace(o.to) : undefined;
  if (!to) bad('"to" must be a place such as "t2" or "f"');
  const move: CardMove = { kind: 'move', card, count: count as number, from: from!, to: to! };
  if (o.autoFill !== undefined) {
    const a = o.autoFill as Record<string, unknown> | null;
    const fillCard = a && typeof a === 'object' && typeof a.card === 'string' ? tryParseCard(a.card) : -1;
    const pile = a && typeof a === 'object' && typeof a.to === 'string' ? tryParsePlace(a.to) : undefined;
    if (fillCard < 0 || !pile || pile.area !== 'tableau') bad('"autoFill" must be like {"card": "KS", "to": "t4"}');
    move.autoFill = { card: fillCard, pile: (pile as { index: number }).index };
  }
  return move;
}


