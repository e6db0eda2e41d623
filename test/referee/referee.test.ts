import { describe, expect, it } from 'vitest';
import { formatCards } from '../../src/cards/card';
import { dealFromSeed } from '../../src/rules/deal';
import type { Move } from '../../src/rules/move';
import { formatMove, parseMove } from '../../src/rules/notation';
import type { Position } from '../../src/rules/position';
import { resolveRules } from '../../src/rules/rules';
import { applyMove, checkMove, isWon, legalMoves, replay } from '../../src/referee/referee';
import { expectError, make, type Layout } from '../helpers';

/** The legal moves of a position as sorted text. */
const moves = (p: Position) => legalMoves(p).map(formatMove).sort();
const sorted = (list: string[]) => list.slice().sort();
const play = (p: Position, ...texts: string[]) => texts.reduce((q, t) => applyMove(q, parseMove(t)), p);
/** The reason a move is refused (checkMove), with applyMove throwing it as one line. */
function refused(p: Position, text: string): string {
  const move = parseMove(text);
  const reason = checkMove(p, move);
  expect(reason, `${text} should be illegal`).toBeDefined();
  expectError(() => applyMove(p, move), `illegal move "${formatMove(move)}": ${reason}`);
  expect(moves(p)).not.toContain(formatMove(move));
  return reason!;
}
const pile = (p: Position, i: number) => formatCards(p.tableau[i]!);

describe('canister family: what moves, and onto what', () => {
  // 13 ranks, A..T of every suit on the foundations: the Js, Qs and Ks are left.
  const layout: Layout = {
    foundations: [10, 10, 10, 10],
    tableau: ['KS QH JC', 'KD', 'QS', 'JD', 'KC', 'QC JH', 'QD', 'KH JS'],
  };
  const toFoundation = ['JC t1 -> f', 'JD t4 -> f', 'JH t6 -> f', 'JS t8 -> f'];

  it('canister: runs built down regardless of suit move as a unit; kings only go up', () => {
    expect(moves(make('canister', layout))).toEqual(
      sorted([
        ...toFoundation,
        'JC t1 -> t3', 'JC t1 -> t7', 'QH t1 -> t2 (2 cards)', 'QH t1 -> t5 (2 cards)',
        'QS t3 -> t2', 'QS t3 -> t5', 'JD t4 -> t3', 'JD t4 -> t7',
        'JH t6 -> t3', 'JH t6 -> t7', 'QC t6 -> t2 (2 cards)', 'QC t6 -> t5 (2 cards)',
        'QD t7 -> t2', 'QD t7 -> t5', 'JS t8 -> t3', 'JS t8 -> t7',
      ]),
    );
  });

  it('american-canister: runs in alternating colours move as a unit', () => {
    const p = make('american-canister', layout);
    expect(moves(p)).toEqual(
      sorted([
        ...toFoundation,
        'JC t1 -> t7', 'QH t1 -> t5 (2 cards)', 'QS t3 -> t2', 'JD t4 -> t3',
        'JH t6 -> t3', 'QC t6 -> t2 (2 cards)', 'QD t7 -> t5', 'JS t8 -> t7',
      ]),
    );
    expect(refused(p, 'QH t1 -> t2 (2 cards)')).toBe(
      'QH does not build on KD (american-canister builds down by one rank in alternating colours, in the order that starts at A)',
    );
  });

  it('british-canister: single cards only', () => {
    const p = make('british-canister', layout);
    expect(moves(p)).toEqual(
      sorted([...toFoundation, 'JC t1 -> t7', 'QS t3 -> t2', 'JD t4 -> t3', 'JH t6 -> t3', 'QD t7 -> t5', 'JS t8 -> t7']),
    );
    expect(refused(p, 'QH t1 -> t5 (2 cards)')).toBe('only single cards move between tableau piles in british-canister');
  });

  it('a moved run lands on top, the pile below is uncovered', () => {
    const after = play(make('canister', layout), 'QH t1 -> t2 (2 cards)');
    expect(pile(after, 0)).toBe('KS');
    expect(pile(after, 1)).toBe('KD QH JC');
  });

  // The same cards with the queen of diamonds' pile emptied (QD now on top of t8).
  const spaced: Layout = { foundations: [10, 10, 10, 10], tableau: ['KS QH JC', 'KD', 'QS', 'JD', 'KC', 'QC JH', '', 'KH JS QD'] };

  it('canister: any card or run fills a space, even a whole pile (pointless but legal)', () => {
    const p = make('canister', spaced);
    const all = moves(p);
    for (const m of ['JC t1 -> t7', 'QH t1 -> t7 (2 cards)', 'KS t1 -> t7 (3 cards)', 'KD t2 -> t7', 'QD t8 -> t7', 'QC t6 -> t7 (2 cards)']) {
      expect(all).toContain(m);
    }
    expect(pile(play(p, 'KS t1 -> t7 (3 cards)'), 6)).toBe('KS QH JC');
  });

  it('british-canister: only a king fills a space', () => {
    const p = make('british-canister', spaced);
    const intoSpace = moves(p).filter((m) => m.includes('-> t7'));
    expect(intoSpace).toEqual(['KC t5 -> t7', 'KD t2 -> t7']);
    expect(refused(p, 'JD t4 -> t7')).toBe('tableau 7 is empty and only a card of the highest rank fills a space in british-canister, and JD is not one');
  });

  it('british-canister in a small deck: the highest rank of the order is the "king"', () => {
    const p = make('british-canister', { rules: { ranks: 3, piles: 4 }, tableau: ['AC 2C 3C AD', '2D 3D AH 2H', '3H AS 2S 3S', ''] });
    expect(moves(p).filter((m) => m.includes('-> t4'))).toEqual(['3S t3 -> t4']);
  });
});

describe('canfield family: whole piles or runs, and automatic spaces', () => {
  // Base A; A..5 of every suit up. JD is the reserve's top card, ready to fill a space.
  const layout: Layout = { base: 'A', foundations: [5, 5, 5, 5], reserve: 'QC JD', tableau: ['9S 8H 7C', 'TD', '9C', '6D'], stock: 'rest' };

  it('canfield: only whole piles move, and the reserve fills a space at once as part of the move', () => {
    const p = make('canfield', layout);
    expect(moves(p)).toEqual(
      sorted([
        '6D t4 -> f [JD reserve -> t4 auto]',
        '9S t1 -> t2 (3 cards) [JD reserve -> t1 auto]',
        '9C t3 -> t2 [JD reserve -> t3 auto]',
        '6D t4 -> t1 [JD reserve -> t4 auto]',
        'deal',
      ]),
    );
    expect(refused(p, '8H t1 -> t3 (2 cards)')).toBe('only a whole pile moves onto another pile in canfield (tableau 1 has 3 card(s), not 2)');
  });

  it('canfield: the automatic fill happens whether the move names it or not, and must be the right one', () => {
    const p = make('canfield', layout);
    const named = play(p, '6D t4 -> f [JD reserve -> t4 auto]');
    const unnamed = play(p, '6D t4 -> f');
    expect(unnamed).toEqual(named);
    expect(pile(named, 3)).toBe('JD');
    expect(formatCards(named.reserve)).toBe('QC');
    expect(named.foundations).toEqual([5, 6, 5, 5]);
    expect(refused(p, '6D t4 -> f [QC reserve -> t4 auto]')).toBe('the automatic fill is JD reserve -> t4, not QC reserve -> t4');
    expect(refused(p, '6D t4 -> f [JD reserve -> t2 auto]')).toBe('the automatic fill is JD reserve -> t4, not JD reserve -> t2');
  });

  it('canfield-relaxed: runs move, foundation cards come back, and nothing fills a space by itself', () => {
    const p = make('canfield-relaxed', layout);
    expect(moves(p)).toEqual(
      sorted(['6D t4 -> f', '8H t1 -> t3 (2 cards)', '9S t1 -> t2 (3 cards)', '9C t3 -> t2', '6D t4 -> t1', '5C f -> t4', '5S f -> t4', 'deal']),
    );
    expect(refused(p, '6D t4 -> f [JD reserve -> t4 auto]')).toBe('no card fills a space automatically after this move, but the move says JD reserve -> t4');
    const after = play(p, '6D t4 -> f');
    expect(after.tableau[3]).toEqual([]);
    expect(formatCards(after.reserve)).toBe('QC JD');
  });

  it('canfield-sequences: runs move, and the reserve still fills spaces at once', () => {
    expect(moves(make('canfield-sequences', layout))).toEqual(
      sorted([
        '6D t4 -> f [JD reserve -> t4 auto]',
        '8H t1 -> t3 (2 cards)',
        '9S t1 -> t2 (3 cards) [JD reserve -> t1 auto]',
        '9C t3 -> t2 [JD reserve -> t3 auto]',
        '6D t4 -> t1 [JD reserve -> t4 auto]',
        'deal',
      ]),
    );
  });

  // The reserve is used up and tableau 4 is open; JD is on the waste.
  const open: Layout = { base: 'A', foundations: [5, 5, 5, 5], reserve: '', tableau: ['9S 8H 7C', 'TD', '9C', ''], waste: 'QC JD', stock: 'rest' };

  it('canfield: once the reserve is empty only the waste top fills a space, at will', () => {
    const p = make('canfield', open);
    const intoSpace = moves(p).filter((m) => m.includes('-> t4'));
    expect(intoSpace).toEqual(['JD waste -> t4']);
    expect(moves(p)).toContain('deal');
    expect(refused(p, '9C t3 -> t4')).toBe("tableau 4 is empty and once the reserve is empty only the waste's top card fills a space in canfield");
    // Emptying a pile now leaves it empty.
    expect(play(p, '9C t3 -> t2').tableau[2]).toEqual([]);
  });

  it('canfield-sequences: once the reserve is empty any card or run from the waste or the tableau fills a space', () => {
    const p = make('canfield-sequences', open);
    expect(moves(p).filter((m) => m.includes('-> t4'))).toEqual(
      sorted(['JD waste -> t4', '7C t1 -> t4', '8H t1 -> t4 (2 cards)', '9S t1 -> t4 (3 cards)', 'TD t2 -> t4', '9C t3 -> t4']),
    );
  });

  it('canfield-relaxed: a foundation card may fill a space too', () => {
    const p = make('canfield-relaxed', open);
    const intoSpace = moves(p).filter((m) => m.includes('-> t4'));
    for (const m of ['JD waste -> t4', '8H t1 -> t4 (2 cards)', '5C f -> t4', '5D f -> t4', '5H f -> t4', '5S f -> t4']) expect(intoSpace).toContain(m);
    expect(play(p, '5H f -> t4').foundations).toEqual([5, 5, 4, 5]);
  });
});

describe('foundation cards come back only in canfield-relaxed', () => {
  it('canfield refuses what canfield-relaxed allows, the base card included', () => {
    const relaxed = dealFromSeed(resolveRules('canfield-relaxed'), 1);
    const hoyle = dealFromSeed(resolveRules('canfield'), 1);
    // Deal 1: KH is the base card; AC (black ace) is on t4, and K builds on A round the corner.
    expect(moves(relaxed)).toContain('KH f -> t4');
    expect(play(relaxed, 'KH f -> t4').foundations).toEqual([0, 0, 0, 0]);
    expect(pile(play(relaxed, 'KH f -> t4'), 3)).toBe('AC KH');
    expect(refused(hoyle, 'KH f -> t4')).toBe('cards never leave the foundations in canfield');
    expect(refused(resolveSequences(), 'KH f -> t4')).toBe('cards never leave the foundations in canfield-sequences');
  });
});
const resolveSequences = () => dealFromSeed(resolveRules('canfield-sequences'), 1);

describe('rank order: wrap, base, aces high', () => {
  // Base 5; KS on the reserve and 4S on the waste; AH and 5D on the tableau.
  const layout: Layout = { base: '5', foundations: [1, 0, 0, 0], reserve: 'QD KS', tableau: ['AH', '5D', '9C', 'JH'], waste: '4S', stock: 'rest' };

  it('canfield builds round the corner: a black K on a red A, a 4 on a 5 with base 5', () => {
    const all = moves(make('canfield', layout));
    expect(all).toContain('KS reserve -> t1');
    expect(all).toContain('4S waste -> t2');
  });

  it('canfield-sequences does not wrap: K on A yes, but nothing on a base-rank card', () => {
    const p = make('canfield-sequences', layout);
    expect(moves(p)).toContain('KS reserve -> t1');
    expect(refused(p, '4S waste -> t2')).toBe(
      '4S does not build on 5D (canfield-sequences builds down by one rank in alternating colours, in the order that starts at 5)',
    );
  });

  it('canfield foundations run from base 8 through K, A, 2 ... 7', () => {
    // Clubs 8..Q are up, the other suits done; the rest of the clubs lie on the waste, KC on top.
    const p = make('canfield', { base: '8', foundations: [5, 13, 13, 13], tableau: ['', '', '', ''], waste: '7C 6C 5C 4C 3C 2C AC KC' });
    const list = ['KC', 'AC', '2C', '3C', '4C', '5C', '6C', '7C'].map((c) => parseMove(`${c} waste -> f`));
    const result = replay(p, list);
    expect(result).toMatchObject({ legal: true, won: true, movesApplied: 8 });
    expect(isWon(result.final)).toBe(true);
    const wrongOrder = make('canfield', { base: '8', foundations: [5, 13, 13, 13], tableau: ['', '', '', ''], waste: '7C 6C 5C 4C 3C 2C KC AC' });
    expect(replay(wrongOrder, [parseMove('AC waste -> f')])).toMatchObject({
      legal: false,
      failedAt: 0,
      reason: 'AC is not the next card of foundation C (that is KC)',
    });
  });

  it('storehouse: aces high, a K goes on the A of its suit, and the A is the last card of a foundation', () => {
    // 2..J of clubs, diamonds and hearts up; spades only the 2.
    const p = make('storehouse', {
      foundations: [11, 11, 11, 1],
      reserve: 'KD KH',
      tableau: ['6S', '5S 4S 3S', 'AH', 'AC KC'],
      waste: 'AD',
      stock: 'rest',
    });
    expect(moves(p)).toEqual(sorted(['KH reserve -> f', '3S t2 -> f', 'KC t4 -> f', '5S t2 -> t1 (3 cards)', 'KH reserve -> t3', 'deal']));
    expect(refused(p, 'AH t3 -> f')).toBe('AH is not the next card of foundation H (that is KH)');
    expect(refused(p, 'KD reserve -> t3')).toBe('the reserve\'s top card is KH, not KD');
    const done = play(p, 'KH reserve -> f', 'AH t3 -> f');
    expect(done.foundations).toEqual([11, 11, 13, 1]);
    expect(refused(done, 'AD waste -> f')).toBe('AD is not the next card of foundation D (that is KD)');
    expect(play(done, 'KD reserve -> f', 'AD waste -> f').foundations).toEqual([11, 13, 13, 1]);
  });

  it('storehouse: only the reserve or waste top fills a space, never a tableau pile', () => {
    const p = make('storehouse', {
      foundations: [11, 11, 12, 1],
      reserve: '6S KD',
      tableau: ['AC KC', 'AD', '', '5S 4S 3S'],
      waste: 'AH',
      stock: 'rest',
    });
    expect(moves(p)).toEqual(
      sorted(['KD reserve -> f', 'AH waste -> f', 'KC t1 -> f', '3S t4 -> f', 'KD reserve -> t2', 'KD reserve -> t3', 'AH waste -> t3', 'deal']),
    );
    expect(refused(p, '5S t4 -> t3 (3 cards)')).toBe('tableau 3 is empty and only the top card of the reserve or the waste fills a space in storehouse');
    expect(refused(p, 'AD t2 -> t3')).toContain('only the top card of the reserve or the waste fills a space');
  });
});

describe('stock, waste and redeals', () => {
  it('draw 3 deals three cards one at a time, the last dealt on top', () => {
    const p = dealFromSeed(resolveRules('canfield'), 1);
    const after = play(p, 'deal');
    expect(formatCards(after.waste)).toBe('4D 6H KC');
    expect(after.stock).toHaveLength(31);
    expect(formatCards(after.stock.slice(-1))).toBe('6S');
  });

  it('draw 3 with fewer than 3 left deals what is left', () => {
    const p = make('canfield', { base: 'A', foundations: [13, 13, 13, 10], tableau: ['', '', '', ''], stock: 'QS KS', waste: 'JS' });
    const after = play(p, 'deal');
    expect(formatCards(after.waste)).toBe('JS KS QS');
    expect(after.stock).toEqual([]);
    expect(refused(after, 'deal')).toBe('the stock is empty, nothing to deal');
    expect(moves(after)).toContain('redeal');
  });

  it('draw 1 when overridden', () => {
    const after = play(dealFromSeed(resolveRules('canfield', { draw: 1 }), 1), 'deal');
    expect(formatCards(after.waste)).toBe('4D');
  });

  it('a redeal turns the waste over unshuffled: the next pass deals the cards in the same order', () => {
    const p = make('canfield', { base: 'A', foundations: [13, 13, 13, 10], tableau: ['', '', '', ''], stock: '', waste: 'JS KS QS' });
    const after = play(p, 'redeal');
    expect(formatCards(after.stock)).toBe('QS KS JS');
    expect(after.waste).toEqual([]);
    expect(after.redealsUsed).toBe(1);
    expect(formatCards(play(after, 'deal').waste)).toBe('JS KS QS');
  });

  it('storehouse: two redeals, so the third pass through the stock is the last', () => {
    const start = dealFromSeed(resolveRules('storehouse'), 1);
    const pass = Array.from({ length: 31 }, () => parseMove('deal'));
    const firstPass = replay(start, pass).final;
    const list = [...pass, parseMove('redeal'), ...pass, parseMove('redeal'), ...pass];
    const result = replay(start, list);
    expect(result).toMatchObject({ legal: true, won: false, movesApplied: 95 });
    expect(result.final.waste).toEqual(firstPass.waste);
    expect(result.final.redealsUsed).toBe(2);
    expect(moves(result.final)).not.toContain('redeal');
    expect(refused(result.final, 'redeal')).toBe('no redeals left: storehouse allows 2 and 2 were used');
    expect(replay(start, [...list, parseMove('redeal')])).toMatchObject({ legal: false, failedAt: 95, movesApplied: 95 });
  });

  it('storehouse with redeals 0 allows one pass; canfield redeals without limit', () => {
    const once = dealFromSeed(resolveRules('storehouse', { redeals: 0 }), 1);
    const pass = Array.from({ length: 31 }, () => parseMove('deal'));
    expect(replay(once, [...pass, parseMove('redeal')])).toMatchObject({ legal: false, failedAt: 31, reason: 'no redeals left: storehouse allows 0 and 0 were used' });
    const p = make('canfield', { base: 'A', foundations: [13, 13, 13, 10], tableau: ['', '', '', ''], waste: 'JS KS QS', redealsUsed: 500 });
    expect(moves(p)).toContain('redeal');
    expect(play(p, 'redeal').redealsUsed).toBe(501);
  });

  it('a redeal is not a move while the stock has cards, nor when stock and waste are both empty', () => {
    expect(refused(dealFromSeed(resolveRules('canfield'), 1), 'redeal')).toBe('the stock still has 34 card(s); redeal only when it is empty');
    const bare = make('canfield', { base: 'A', foundations: [13, 13, 13, 10], tableau: ['JS', 'QS', 'KS', ''] });
    expect(refused(bare, 'redeal')).toBe('the stock and waste are both empty, so a redeal would change nothing');
    expect(refused(bare, 'deal')).toBe('the stock is empty, nothing to deal');
  });
});

describe('every refusal names its reason', () => {
  const p = make('canfield-relaxed', { base: 'A', foundations: [5, 5, 5, 5], reserve: 'QC JD', tableau: ['9S 8H 7C', 'TD', '9C', '6D'], stock: 'rest' });
  it.each([
    ['QH t1 -> t3', 'the top card of tableau 1 is 7C, not QH'],
    ['9S t1 -> t3 (2 cards)', 'the top 2 cards of tableau 1 start with 8H, not 9S'],
    ['9S t1 -> t3 (4 cards)', 'tableau 1 has only 3 card(s), not 4'],
    ['9S t1 -> t9 (3 cards)', 'there is no tableau pile 9 (canfield-relaxed has 4)'],
    ['9C t3 -> t3', 'a pile cannot move onto itself'],
    ['9C t3 -> reserve', 'cards never go to the reserve'],
    ['9C t3 -> waste', 'cards never go to the waste'],
    ['8H t1 -> f (2 cards)', 'only one card at a time goes to a foundation'],
    ['QC reserve -> t1', "the reserve's top card is JD, not QC"],
    ['JD reserve -> t1 (2 cards)', 'only one card at a time comes from the reserve'],
    ['JD waste -> t1', 'the waste is empty'],
    ['5C f -> f', 'a foundation card cannot go to a foundation'],
    ['4C f -> t4', 'the top of foundation C is 5C, not 4C'],
    ['TD t2 -> t1', 'TD does not build on 7C (canfield-relaxed builds down by one rank in alternating colours, round the corner)'],
    ['7C t1 -> f', '7C is not the next card of foundation C (that is 6C)'],
  ])('%s', (text, reason) => expect(refused(p, text)).toBe(reason));

  it('a run that is not built does not move, and hand-made nonsense is refused without a crash', () => {
    const c = make('canister', { rules: { ranks: 2, piles: 2 }, tableau: ['AC 2C AD', '2D AH 2H AS 2S'] });
    expect(refused(c, 'AC t1 -> t2 (3 cards)')).toBe('AC 2C AD (from tableau 1) is not a built run');
    const bad = (move: unknown) => checkMove(c, move as Move);
    expect(bad({ kind: 'move', card: 99, count: 1, from: { area: 'tableau', index: 0 }, to: { area: 'foundation' } })).toBe('99 is not a card of this 8-card deck');
    expect(bad({ kind: 'move', card: 2, count: 1, from: { area: 'tableau', index: 0 }, to: { area: 'foundation' } })).toBe('2 is not a card of this 8-card deck');
    expect(bad({ kind: 'move', card: 0, count: 0, from: { area: 'tableau', index: 0 }, to: { area: 'foundation' } })).toBe('bad card count 0');
    expect(bad({ kind: 'move', card: 0, count: 1, from: { area: 'cells' }, to: { area: 'foundation' } })).toBe('unknown source place "cells"');
    expect(bad({ kind: 'jump' })).toBe('unknown move kind "jump"');
    expectError(() => applyMove(c, { kind: 'jump' } as unknown as Move), 'illegal move {"kind":"jump"}: unknown move kind "jump"');
  });
});

describe('replay', () => {
  const start = dealFromSeed(resolveRules('canfield'), 1);

  it('applies legal moves and says where the first illegal one is, and why', () => {
    const list = ['AH t1 -> f', 'deal', 'KC waste -> t2', 'deal'].map((t) => parseMove(t));
    const result = replay(start, list);
    expect(result.legal).toBe(false);
    expect(result.failedAt).toBe(2);
    expect(result.movesApplied).toBe(2);
    expect(result.reason).toBe('KC does not build on 4H (canfield builds down by one rank in alternating colours, round the corner)');
    expect(result.final).toEqual(play(start, 'AH t1 -> f', 'deal'));
    expect(result.won).toBe(false);
  });

  it('replays a legal list to its end without touching the start', () => {
    const before = JSON.stringify(start);
    const result = replay(start, [parseMove('AH t1 -> f'), parseMove('deal'), parseMove('KC waste -> f')]);
    expect(result).toMatchObject({ legal: true, won: false, movesApplied: 3 });
    expect(result.failedAt).toBeUndefined();
    expect(result.final.foundations).toEqual([1, 0, 2, 0]);
    expect(pile(result.final, 0)).toBe('3D');
    expect(JSON.stringify(start)).toBe(before);
  });

  it('refuses to start from an invalid position', () => {
    const broken = { ...start, tableau: [[], ...start.tableau.slice(1)] };
    expectError(() => replay(broken, []), 'position: missing card(s) AH');
  });
});
