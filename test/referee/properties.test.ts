import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Card, orderedDeck } from '../../src/cards/card';
import { PatienceError } from '../../src/errors';
import { dealFromSeed } from '../../src/rules/deal';
import type { Move, Place } from '../../src/rules/move';
import { formatMove, moveFromJson, moveToJson, parseMove } from '../../src/rules/notation';
import { foundationCards, formatPosition, parsePosition, type Position, validatePosition } from '../../src/rules/position';
import { PRESET_NAMES, resolveRules, type RulesOptions } from '../../src/rules/rules';
import { applyMove, checkMove, legalMoves, replay } from '../../src/referee/referee';
import { mulberry } from '../helpers';

fc.configureGlobal({ seed: 42, numRuns: 12 });

/** Every card of the position, wherever it is. */
function allCards(p: Position): Card[] {
  const cards = [...p.reserve, ...p.tableau.flat(), ...p.stock, ...p.waste];
  for (let s = 0; s < 4; s++) cards.push(...foundationCards(p, s));
  return cards.sort((a, b) => a - b);
}

/** A move without its automatic fill, as text (checkMove accepts a move that leaves it implied). */
const bare = (m: Move): string => formatMove(m.kind === 'move' ? { ...m, autoFill: undefined } : m);

/**
 * Every move that names a real card at a real place, legal or not: each card or run that could be
 * taken (every depth of every pile, the reserve and waste tops, every foundation top) to every
 * place, plus deal and redeal. The legal moves must be exactly those checkMove accepts.
 */
function candidates(p: Position): Move[] {
  const places: Place[] = [{ area: 'reserve' }, { area: 'waste' }, { area: 'foundation' }, ...p.tableau.map((_, index) => ({ area: 'tableau' as const, index }))];
  const sources: { card: Card; count: number; from: Place }[] = [];
  if (p.reserve.length) sources.push({ card: p.reserve.at(-1)!, count: 1, from: { area: 'reserve' } });
  if (p.waste.length) sources.push({ card: p.waste.at(-1)!, count: 1, from: { area: 'waste' } });
  p.tableau.forEach((pile, index) => pile.forEach((card, i) => sources.push({ card, count: pile.length - i, from: { area: 'tableau', index } })));
  for (let s = 0; s < 4; s++) {
    const f = foundationCards(p, s);
    if (f.length) sources.push({ card: f.at(-1)!, count: 1, from: { area: 'foundation' } });
  }
  const moves: Move[] = [{ kind: 'deal' }, { kind: 'redeal' }];
  for (const s of sources) for (const to of places) moves.push({ kind: 'move', ...s, to });
  return moves;
}

/** Moves near a legal one that are probably not legal: other counts, cards, places and fills. */
function mutants(p: Position, m: Move, rng: () => number): Move[] {
  if (m.kind !== 'move') return [{ kind: m.kind === 'deal' ? 'redeal' : 'deal' }];
  const deck = orderedDeck(p.rules.ranks);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
  const index = Math.floor(rng() * (p.tableau.length + 1));
  const out: Move[] = [
    { ...m, count: m.count + 1 },
    { ...m, count: Math.max(1, m.count - 1) },
    { ...m, card: pick(deck) },
    { ...m, to: { area: 'tableau', index } },
    { ...m, from: { area: 'tableau', index } },
    { ...m, to: { area: 'foundation' } },
    { ...m, from: pick<Place>([{ area: 'reserve' }, { area: 'waste' }, { area: 'foundation' }]) },
    { ...m, autoFill: { card: pick(deck), pile: Math.floor(rng() * p.tableau.length) } },
  ];
  return out;
}

/** What the playouts did, per kind of move, to check that they reach the rules worth testing. */
const seen = new Map<string, number>();
function tally(p: Position, m: Move): void {
  const kinds: string[] = [m.kind];
  if (m.kind === 'move') {
    if (m.autoFill) kinds.push('auto fill');
    if (m.count > 1) kinds.push('run');
    if (m.to.area === 'tableau' && p.tableau[m.to.index]!.length === 0) kinds.push('into a space');
    kinds.push(`${m.from.area} -> ${m.to.area}`);
  }
  for (const k of kinds) seen.set(`${p.rules.game}: ${k}`, (seen.get(`${p.rules.game}: ${k}`) ?? 0) + 1);
}

/** Full decks for every preset, and small decks (as brute force uses them) with other layouts. */
const GAMES: [string, RulesOptions][] = [
  ...PRESET_NAMES.map((g): [string, RulesOptions] => [g, {}]),
  ['canister', { ranks: 4, piles: 4 }],
  ['british-canister', { ranks: 3, piles: 3 }],
  ['storehouse', { ranks: 5, reserve: 3, redeals: 1 }],
  ['canfield', { ranks: 5, reserve: 3, piles: 3, draw: 1 }],
  ['canfield-relaxed', { ranks: 4, reserve: 2, piles: 2 }],
  ['canfield-sequences', { ranks: 4, reserve: 2, piles: 3, redeals: 2 }],
];

describe.each(GAMES)('random playouts: %s %j', (game, options) => {
  const rules = resolveRules(game, options);
  const STEPS = 60;

  it('conserve cards, stay valid, round-trip positions and moves, and agree with checkMove', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 }), fc.integer(), (seed, choices) => {
        const rng = mulberry(choices);
        const deck = orderedDeck(rules.ranks);
        let p = dealFromSeed(rules, seed);
        const played: Move[] = [];
        for (let step = 0; step < STEPS; step++) {
          expect(allCards(p)).toEqual(deck);
          validatePosition(p);
          expect(parsePosition(JSON.stringify(formatPosition(p)))).toEqual(p);

          const legal = legalMoves(p);
          const legalText = new Set(legal.map(bare));
          expect(legalText.size, 'no move is listed twice').toBe(legal.length);
          const accepted = candidates(p).filter((m) => checkMove(p, m) === undefined).map(bare);
          expect(new Set(accepted)).toEqual(legalText);

          for (const m of legal) {
            expect(parseMove(formatMove(m))).toEqual(m);
            expect(parseMove(formatMove(m), p)).toEqual(m);
            expect(moveFromJson(JSON.parse(JSON.stringify(moveToJson(m))))).toEqual(m);
          }
          if (legal.length === 0) break;
          const move = legal[Math.floor(rng() * legal.length)]!;
          for (const wrong of mutants(p, move, rng)) {
            if (legal.some((m) => formatMove(m) === formatMove(wrong))) continue;
            if (wrong.kind === 'move' && !wrong.autoFill && legalText.has(bare(wrong))) continue;
            expect(() => applyMove(p, wrong)).toThrow(PatienceError);
            const result = replay(p, [wrong]);
            expect(result.legal).toBe(false);
            expect(result.failedAt).toBe(0);
            expect(result.reason).toBeTruthy();
          }
          tally(p, move);
          const next = applyMove(p, move);
          if (move.kind === 'move' && move.autoFill) {
            expect(applyMove(p, { ...move, autoFill: undefined })).toEqual(next);
          }
          played.push(move);
          p = next;
        }
        const start = dealFromSeed(rules, seed);
        const result = replay(start, played);
        expect(result.legal).toBe(true);
        expect(result.movesApplied).toBe(played.length);
        expect(result.final).toEqual(p);
        const reparsed = played.map((m) => parseMove(formatMove(m)));
        expect(replay(start, reparsed).final).toEqual(p);
      }),
    );
  });
});

describe('the playouts reach every rule worth testing', () => {
  it.each([
    'canister: into a space', 'canister: run', 'canister: tableau -> foundation',
    'british-canister: into a space',
    'storehouse: redeal', 'storehouse: reserve -> tableau', 'storehouse: waste -> foundation', 'storehouse: into a space',
    'canfield: auto fill', 'canfield: redeal', 'canfield: reserve -> foundation', 'canfield: waste -> tableau',
    'canfield-relaxed: foundation -> tableau', 'canfield-relaxed: run', 'canfield-relaxed: into a space',
    'canfield-sequences: auto fill', 'canfield-sequences: run',
  ])('%s', (kind) => {
    expect(seen.get(kind) ?? 0).toBeGreaterThan(0);
  });
});
