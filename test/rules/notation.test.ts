import { describe, expect, it } from 'vitest';
import { parseCard } from '../../src/cards/card';
import type { Move } from '../../src/rules/move';
import { formatMove, formatMoves, moveFromJson, moveToJson, parseMove, parsePlace } from '../../src/rules/notation';
import { parseMoves } from '../../src/referee/referee';
import { dealFromSeed } from '../../src/rules/deal';
import { resolveRules } from '../../src/rules/rules';
import { expectError, make } from '../helpers';

const c = parseCard;
const t = (index: number) => ({ area: 'tableau' as const, index });
const EXAMPLES: [string, Move][] = [
  ['7H waste -> t2', { kind: 'move', card: c('7H'), count: 1, from: { area: 'waste' }, to: t(1) }],
  ['3C t4 -> f', { kind: 'move', card: c('3C'), count: 1, from: t(3), to: { area: 'foundation' } }],
  ['QS t1 -> t3 (4 cards)', { kind: 'move', card: c('QS'), count: 4, from: t(0), to: t(2) }],
  ['KS reserve -> t1', { kind: 'move', card: c('KS'), count: 1, from: { area: 'reserve' }, to: t(0) }],
  ['5H f -> t2', { kind: 'move', card: c('5H'), count: 1, from: { area: 'foundation' }, to: t(1) }],
  ['3C t4 -> f [KS reserve -> t4 auto]', { kind: 'move', card: c('3C'), count: 1, from: t(3), to: { area: 'foundation' }, autoFill: { card: c('KS'), pile: 3 } }],
  ['QD t12 -> t10 (2 cards)', { kind: 'move', card: c('QD'), count: 2, from: t(11), to: t(9) }],
  ['deal', { kind: 'deal' }],
  ['redeal', { kind: 'redeal' }],
];

describe('move notation', () => {
  it.each(EXAMPLES)('%s prints and parses', (text, move) => {
    expect(formatMove(move)).toBe(text);
    expect(parseMove(text)).toEqual(move);
  });

  it('reads the long place names, r/w, 10 for ten, any case and spacing, and a run of one', () => {
    expect(parseMove('7h W->T2')).toEqual(EXAMPLES[0]![1]);
    expect(parseMove('3C tableau 4 -> foundation')).toEqual(EXAMPLES[1]![1]);
    expect(parseMove('KS r -> tableau1')).toEqual(EXAMPLES[3]![1]);
    expect(parseMove('10H waste -> t2')).toMatchObject({ card: c('TH') });
    expect(parseMove('QS t1 -> t3 (1 card)')).toMatchObject({ count: 1 });
    expect(parseMove(' DEAL ')).toEqual({ kind: 'deal' });
    expect(parsePlace('Reserve')).toEqual({ area: 'reserve' });
  });

  it('reads a move with or without its automatic fill', () => {
    const bare = parseMove('3C t4 -> f');
    expect(bare.kind === 'move' && bare.autoFill).toBeFalsy();
    expect(parseMove('3c t4 -> f [ks r -> t4 auto]')).toEqual(EXAMPLES[5]![1]);
  });

  it.each([
    ['', 'bad move "": expected deal, redeal or CARD FROM -> TO'],
    ['shuffle', 'bad move "shuffle"'],
    ['7H waste t2', 'bad move "7H waste t2": expected deal, redeal or CARD FROM -> TO'],
    ['7H waste -> t2 -> t3', 'expected deal, redeal'],
    ['7X waste -> t2', 'cannot read the source "7x waste"'],
    ['7H stock -> t2', 'cannot read the source "7h stock"'],
    ['7H waste -> t0', 'bad destination "t0"'],
    ['7H waste -> heaven', 'bad destination "heaven"'],
    ['QS t1 -> t3 (0 cards)', 'a move takes at least one card'],
    ['QS t1 -> t3 (99999999999999999999 cards)', 'bad move "QS t1 -> t3 (99999999999999999999 cards)": 99999999999999999999 cards are more than a deck holds'],
    ['QS t1 -> t3 (53 cards)', '53 cards are more than a deck holds'],
    ['waste -> t2', 'name the card moved'],
    ['3C t4 -> f [KS waste -> t4 auto]', 'the automatic fill must read like [KS reserve -> t4 auto]'],
    ['3C t4 -> f [KS reserve -> f auto]', 'the automatic fill must read like'],
  ])('refuses %j', (text, message) => expectError(() => parseMove(text), message));

  it('refuses a bad place by name', () => expectError(() => parsePlace('t-1'), 'bad place "t-1"'));
});

describe('moves read in their position', () => {
  const p = make('canfield-relaxed', {
    rules: { ranks: 4, reserve: 1, piles: 3 },
    base: 'A',
    foundations: [1, 1, 0, 0],
    reserve: '2C',
    tableau: ['4C 3H 2S', 'AH', '3C'],
    stock: '2D AS 3D 4D',
    waste: '4S 2H 3S 4H',
  });

  it('finds the card at the top of the place when it is left out', () => {
    expect(parseMove('waste -> f', p)).toMatchObject({ card: c('4H'), count: 1 });
    expect(parseMove('t2 -> f', p)).toMatchObject({ card: c('AH'), count: 1 });
    expect(parseMove('reserve -> f', p)).toMatchObject({ card: c('2C'), count: 1 });
    expect(parseMove('t1 -> t3 (2 cards)', p)).toMatchObject({ card: c('3H'), count: 2 });
  });

  it('finds the length of a run from its bottom card', () => {
    expect(parseMove('3H t1 -> t2', p)).toMatchObject({ card: c('3H'), count: 2 });
    expect(parseMove('4C t1 -> t2', p)).toMatchObject({ count: 3 });
    expect(parseMove('4C t1 -> t2 (1 card)', p)).toMatchObject({ count: 1 });
  });

  it('still needs the card of a foundation move, and a card to be there', () => {
    expectError(() => parseMove('f -> t1', p), 'name the foundation card moved');
    const empty = make('canister', { rules: { ranks: 1, piles: 5 }, tableau: ['AC', 'AD', 'AH', 'AS', ''] });
    expectError(() => parseMove('t5 -> f', empty), 'there is no card to take at t5');
  });
});

describe('move lists', () => {
  const moves: Move[] = EXAMPLES.map(([, m]) => m);

  it('print numbered, one a line, and parse back', () => {
    const text = formatMoves(moves);
    expect(text.split('\n')[0]).toBe('1. 7H waste -> t2');
    expect(text.split('\n')[8]).toBe('9. redeal');
    expect(parseMoves(text)).toEqual(moves);
  });

  it('skip blank lines and # comments, with or without numbers', () => {
    const text = '# a solution\n\n1. deal\n  7H waste -> t2   # the seven\n3) redeal\n';
    expect(parseMoves(text)).toEqual([{ kind: 'deal' }, EXAMPLES[0]![1], { kind: 'redeal' }]);
    expect(parseMoves('')).toEqual([]);
  });

  it('name the line of a bad move', () => {
    expectError(() => parseMoves('deal\n# ok\n7H nowhere -> t2\n'), 'moves line 3: bad move "7H nowhere -> t2"');
  });

  it('are read move by move in the position they are played from', () => {
    // Canfield deal 1: AH goes up (3D fills t1), then 4D 6H KC are dealt, KC (a base card) on top.
    const start = dealFromSeed(resolveRules('canfield'), 1);
    const list = parseMoves('t1 -> f\ndeal\nwaste -> f\nt1 -> f\n', start);
    expect(list.map(formatMove)).toEqual(['AH t1 -> f', 'deal', 'KC waste -> f', '3D t1 -> f']);
  });

  it('stop reading in the position after a move that cannot be played', () => {
    const start = dealFromSeed(resolveRules('canfield'), 1);
    expectError(() => parseMoves('deal\nredeal\nwaste -> f\n', start), 'moves line 3: bad move "waste -> f": name the card moved');
  });
});

describe('move JSON', () => {
  it.each(EXAMPLES)('%s round-trips through JSON', (_text, move) => {
    expect(moveFromJson(JSON.parse(JSON.stringify(moveToJson(move))))).toEqual(move);
  });

  it('writes places as in the text form', () => {
    expect(moveToJson(EXAMPLES[5]![1])).toEqual({ kind: 'move', card: '3C', count: 1, from: 't4', to: 'f', autoFill: { card: 'KS', to: 't4' } });
    expect(moveToJson({ kind: 'deal' })).toEqual({ kind: 'deal' });
  });

  it.each([
    [null, 'expected an object'],
    [{ kind: 'jump' }, '"kind" must be "move", "deal" or "redeal"'],
    [{ kind: 'deal', card: '7H' }, 'unknown key "card"'],
    [{ kind: 'move', card: '7X', from: 'waste', to: 't2' }, '"card" must be a card'],
    [{ kind: 'move', card: '7H', count: 0, from: 'waste', to: 't2' }, '"count" must be a whole number from 1 to 52'],
    [{ kind: 'move', card: '7H', count: 1e21, from: 'waste', to: 't2' }, '"count" must be a whole number from 1 to 52'],
    [{ kind: 'move', card: '7H', from: 'stock', to: 't2' }, '"from" must be a place'],
    [{ kind: 'move', card: '7H', from: 'waste' }, '"to" must be a place'],
    [{ kind: 'move', card: '7H', from: 'waste', to: 't2', autoFill: { card: 'KS', to: 'f' } }, '"autoFill" must be like'],
  ])('refuses %j', (json, message) => {
    expectError(() => moveFromJson(json), /^bad move JSON /);
    expectError(() => moveFromJson(json), message);
  });
});
