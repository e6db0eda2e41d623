import { describe, expect, it } from 'vitest';
import { formatCards, orderedDeck } from '../../src/cards/card';
import { dealFromSeed } from '../../src/rules/deal';
import { describePosition, foundationCards, formatPosition, parsePosition, type PositionJson, validatePosition } from '../../src/rules/position';
import { PRESET_NAMES, resolveRules } from '../../src/rules/rules';
import { expectError, make } from '../helpers';

const canfield = () => formatPosition(dealFromSeed(resolveRules('canfield'), 1));
const json = (p: PositionJson) => JSON.parse(JSON.stringify(p)) as PositionJson;

describe('position JSON round trip', () => {
  it.each(PRESET_NAMES)('%s: a dealt position prints and parses back to itself', (game) => {
    for (const seed of [0, 1, 99]) {
      const p = dealFromSeed(resolveRules(game), seed);
      const printed = formatPosition(p);
      expect(parsePosition(JSON.stringify(printed))).toEqual(p);
      expect(parsePosition(printed)).toEqual(p);
    }
  });

  it('keeps rule overrides in "rules", and only those', () => {
    const p = dealFromSeed(resolveRules('canfield', { draw: 1, redeals: 2 }), 5);
    const printed = formatPosition(p);
    expect(printed.rules).toEqual({ draw: 1, redeals: 2 });
    expect(parsePosition(printed).rules).toEqual(p.rules);
    expect(formatPosition(dealFromSeed(resolveRules('canfield'), 5)).rules).toBeUndefined();
  });

  it('prints canfield as RULES.md shows it: foundations in suit order, base rank, piles bottom to top', () => {
    const printed = canfield();
    expect(printed.game).toBe('canfield');
    expect(printed.foundations).toEqual([[], [], ['KH'], []]);
    expect(printed.baseRank).toBe('K');
    expect(printed.reserve!.at(-1)).toBe('3D');
    expect(printed.tableau).toEqual([['AH'], ['4H'], ['8H'], ['AC']]);
    expect(printed.stock!.at(-1)).toBe('4D');
    expect(printed.waste).toEqual([]);
    expect(printed.redealsUsed).toBe(0);
  });

  it('omits what canister does not have', () => {
    const printed = formatPosition(dealFromSeed(resolveRules('canister'), 1));
    expect(Object.keys(printed).sort()).toEqual(['baseRank', 'foundations', 'game', 'tableau']);
  });

  // The example of RULES.md, completed: every card it does not list goes to the stock.
  const rulesExample = (tableau: string[][]): PositionJson => {
    const listed = new Set(['JD', 'QD', 'JS', 'TD', 'AS', 'KD', ...tableau.flat(), '6S', '9S']);
    const rest = formatCards(orderedDeck()).split(' ').filter((c) => !listed.has(c));
    return {
      game: 'canfield',
      rules: { draw: 1 },
      foundations: [['JD', 'QD'], ['JS'], [], []],
      baseRank: 'J',
      reserve: ['TD', 'AS', 'KD'],
      tableau,
      stock: rest,
      waste: ['6S', '9S'],
      redealsUsed: 0,
    };
  };

  it('reads the example of RULES.md (completed), foundations listed in any order', () => {
    const p = parsePosition(rulesExample([['KH'], ['JH', 'TC'], ['8S'], ['AH']]));
    expect(p.baseRank).toBe(10);
    expect(p.foundations).toEqual([0, 2, 0, 1]);
    expect(p.rules.draw).toBe(1);
    expect(formatPosition(p).foundations).toEqual([[], ['JD', 'QD'], [], ['JS']]);
  });

  it('refuses the example as printed: under canfield a space cannot stay open while the reserve has cards', () => {
    expectError(() => parsePosition(rulesExample([['KH'], ['JH', 'TC'], [], ['AH']])), 'position: tableau 3 is empty while the reserve has cards');
    const relaxed = parsePosition({ ...rulesExample([['KH'], ['JH', 'TC'], [], ['AH']]), game: 'canfield-relaxed' });
    expect(relaxed.tableau[2]).toEqual([]);
  });

  it('describes a position readably', () => {
    const text = describePosition(dealFromSeed(resolveRules('canfield'), 1));
    expect(text).toContain('reserve (13)');
    expect(text).toContain('t1  AH');
    expect(text).toContain('redeals used 0 of unlimited, draw 3');
  });
});

describe('position validation: every error names the problem', () => {
  const cases: [string, () => unknown, string][] = [
    ['malformed JSON', () => parsePosition('{"game": "canfield",'), 'position: malformed JSON'],
    ['not an object', () => parsePosition('[1, 2]'), 'position: expected a JSON object'],
    ['unknown key', () => parsePosition({ ...canfield(), cells: [] } as PositionJson), 'position: unknown key "cells"'],
    ['no game', () => parsePosition({ ...canfield(), game: 3 } as unknown as PositionJson), 'position: "game" must name a preset'],
    ['unknown game', () => parsePosition({ ...canfield(), game: 'spider' }), 'unknown game "spider"'],
    ['rules not an object', () => parsePosition({ ...canfield(), rules: [1] } as unknown as PositionJson), 'position: "rules" must be an object of rule options'],
    ['bad rules option', () => parsePosition({ ...canfield(), rules: { draw: 0 } }), 'bad rules option draw: 0'],
    ['bad card text', () => {
      const p = json(canfield());
      p.tableau![1]![0] = 'XH';
      return parsePosition(p);
    }, 'position: bad card "XH" at tableau[1][0]'],
    ['a list that is not a list', () => parsePosition({ ...canfield(), stock: 'AH' } as unknown as PositionJson), 'position: stock must be a list'],
    ['duplicate card', () => {
      const p = json(canfield());
      p.tableau![1] = ['AH'];
      return parsePosition(p);
    }, 'position: duplicate card AH (tableau 1 and tableau 2)'],
    ['missing card', () => {
      const p = json(canfield());
      p.stock = p.stock!.filter((c) => c !== '9S');
      return parsePosition(p);
    }, 'position: missing card(s) 9S'],
    ['card outside a small deck', () => parsePosition({ game: 'canister', rules: { ranks: 1, piles: 4 }, tableau: [['AC'], ['AD'], ['AH'], ['2S']] }), 'position: card 2S (tableau 4) is not in a deck of 1 ranks per suit'],
    ['foundation out of order', () => {
      const p = json(canfield());
      p.foundations![2] = ['KH', '2H'];
      p.stock = p.stock!.filter((c) => c !== '2H');
      return parsePosition(p);
    }, 'position: foundations[2] has 2H where AH belongs'],
    ['foundation not starting at the base', () => {
      const p = json(canfield());
      p.foundations![0] = ['AC'];
      p.tableau![3] = [];
      p.reserve = [];
      return parsePosition(p);
    }, 'position: foundation starting AC does not start at the base rank K'],
    ['foundation wrong base for a fixed-base game', () => parsePosition({ game: 'canister', rules: { ranks: 2, piles: 2 }, foundations: [['2C']], tableau: [['AC', 'AD', '2D'], ['AH', '2H', 'AS', '2S']] }), 'position: foundation starting 2C does not start at the base rank A (from the rules of canister)'],
    ['two foundations of one suit', () => {
      const p = json(canfield());
      p.foundations = [['KH'], [], ['KH'], []];
      return parsePosition(p);
    }, 'position: two foundations of suit H'],
    ['five foundations', () => parsePosition({ ...canfield(), foundations: [[], [], ['KH'], [], []] }), 'position: 5 foundations given; there are 4'],
    ['wrong pile count', () => {
      const p = json(canfield());
      p.tableau = p.tableau!.slice(0, 3);
      p.stock!.push('AC');
      return parsePosition(p);
    }, 'position: 3 tableau piles given; canfield has 4'],
    ['unbuilt canfield pile', () => {
      const p = json(canfield());
      p.tableau![0] = ['AH', '4H'];
      p.tableau![1] = [];
      p.reserve = [];
      p.stock!.push(...canfield().reserve!);
      return parsePosition(p);
    }, 'position: tableau 1 (AH 4H) is not a built sequence, which canfield piles always are'],
    ['empty pile while the canfield reserve has cards', () => {
      const p = json(canfield());
      p.tableau![1] = [];
      p.stock!.push('4H');
      return parsePosition(p);
    }, 'position: tableau 2 is empty while the reserve has cards (canfield fills a space from the reserve at once)'],
    ['reserve given for canister', () => parsePosition({ game: 'canister', rules: { ranks: 1, piles: 3 }, reserve: ['AS'], tableau: [['AC'], ['AD'], ['AH']] }), 'position: canister has no reserve, but the reserve holds 1 card(s)'],
    ['stock given for canister', () => parsePosition({ game: 'canister', rules: { ranks: 1, piles: 3 }, stock: ['AS'], tableau: [['AC'], ['AD'], ['AH']] }), 'position: canister has no stock or waste, but cards are there'],
    ['redealsUsed over the limit', () => {
      const p = json(formatPosition(dealFromSeed(resolveRules('storehouse'), 1)));
      p.redealsUsed = 3;
      return parsePosition(p);
    }, 'position: redealsUsed 3 is more than the 2 redeal(s) allowed'],
    ['redealsUsed not a number', () => parsePosition({ ...canfield(), redealsUsed: 'two' } as unknown as PositionJson), 'position: redealsUsed must be a whole number, not "two"'],
    ['baseRank missing', () => {
      const p = json(canfield());
      delete p.baseRank;
      p.foundations = [[], [], [], []];
      p.stock!.push('KH');
      return parsePosition(p);
    }, 'position: baseRank is needed when no foundation holds a card'],
    ['bad baseRank', () => parsePosition({ ...canfield(), baseRank: 'Z' }), 'position: bad baseRank "Z"'],
    ['baseRank against a fixed base', () => parsePosition({ ...formatPosition(dealFromSeed(resolveRules('storehouse'), 1)), baseRank: '3' }), 'position: baseRank 3 contradicts the rules of storehouse (base 2)'],
    ['a storehouse foundation without its 2', () => {
      const p = json(formatPosition(dealFromSeed(resolveRules('storehouse'), 1)));
      p.foundations![0] = [];
      p.stock!.push('2C');
      return parsePosition(p);
    }, 'position: foundation C is empty, but storehouse starts every foundation with its base card'],
  ];
  it.each(cases)('refuses %s', (_name, action, message) => expectError(action, message));

  it('accepts a base card back from its foundation where foundation cards come back, though the bases start out', () => {
    // Reached by legal play (a random referee playout of Storehouse with these overrides).
    const p = parsePosition({
      game: 'storehouse',
      rules: { ranks: 4, build: 'any-suit', spaces: 'kings', draw: 2, redeals: 1, base: '4', foundationToTableau: true, reserve: 1, piles: 2 },
      foundations: [['4C'], ['4D'], [], ['4S']],
      baseRank: '4',
      reserve: ['3H'],
      tableau: [['AH', '4H'], ['AC']],
      stock: [],
      waste: ['3C', 'AD', 'AS', '3S', '2S', '2D', '2C', '2H', '3D'],
    });
    expect(p.foundations).toEqual([1, 1, 0, 1]);
    expect(parsePosition(formatPosition(p))).toEqual(p);
    expectError(() => validatePosition({ ...p, rules: { ...p.rules, foundationToTableau: false } }), 'position: foundation H is empty, but storehouse starts every foundation with its base card');
  });

  it('also refuses a hand-built position whose foundation counts are impossible', () => {
    const p = make('canister', { rules: { ranks: 1, piles: 4 }, tableau: ['AC', 'AD', 'AH', 'AS'] });
    p.foundations = [2, 0, 0, 0];
    expectError(() => validatePosition(p), 'position: foundation C holds 2 cards');
    p.foundations = [0, 0, 0];
    expectError(() => validatePosition(p), 'position: there must be 4 foundations');
    p.foundations = [0, 0, 0, 0];
    expectError(() => validatePosition({ ...p, baseRank: 1 }), 'position: bad base rank 1 for a deck of 1 ranks per suit');
    const storehouse = dealFromSeed(resolveRules('storehouse'), 1);
    expectError(() => validatePosition({ ...storehouse, baseRank: 0 }), 'position: base rank A contradicts the rules of storehouse (base 2)');
  });
});

describe('foundationCards', () => {
  it('lists one foundation base card first, and refuses a suit that is not 0-3', () => {
    const deal = dealFromSeed(resolveRules('canfield'), 7); // base 6: 6D starts the diamonds
    expect(formatCards(foundationCards(deal, 1))).toBe('6D');
    expect(foundationCards(deal, 0)).toEqual([]);
    const p = make('canfield', { base: '8', foundations: [3, 0, 0, 0], tableau: ['', '', '', ''], stock: 'rest' });
    expect(formatCards(foundationCards(p, 0))).toBe('8C 9C TC');
    expectError(() => foundationCards(deal, undefined as unknown as number), 'foundationCards needs a suit from 0 to 3 (C D H S), not undefined');
    expectError(() => foundationCards(deal, 4), 'not 4');
  });
});
