import { describe, expect, it } from 'vitest';
import { deckSize, PRESET_NAMES, PRESETS, resolveRules, rulesToJson, stockSize } from '../../src/rules/rules';
import { expectError } from '../helpers';

describe('presets', () => {
  it('has the seven presets of RULES.md', () => {
    expect([...PRESET_NAMES].sort()).toEqual(
      ['american-canister', 'british-canister', 'canfield', 'canfield-relaxed', 'canfield-sequences', 'canister', 'storehouse'].sort(),
    );
  });

  it.each(PRESET_NAMES)('%s resolves to itself with no overrides', (name) => {
    const rules = resolveRules(name);
    expect(rules).toEqual(PRESETS[name]!.rules);
    expect(rules.game).toBe(name);
    expect(PRESETS[name]!.description.length).toBeGreaterThan(10);
  });

  it('names games case-insensitively', () => {
    expect(resolveRules('CanField').game).toBe('canfield');
  });

  it('gives each preset the options of RULES.md', () => {
    const pick = (name: string) => {
      const r = resolveRules(name);
      return [r.build, r.move, r.spaces, r.draw, r.redeals, r.base, r.wrap, r.foundationToTableau, r.reserve, r.piles, r.pileCards];
    };
    expect(pick('canister')).toEqual(['any-suit', 'runs', 'any', 1, 0, 0, false, false, 0, 8, 'all']);
    expect(pick('american-canister')).toEqual(['alternate-colors', 'runs', 'any', 1, 0, 0, false, false, 0, 8, 'all']);
    expect(pick('british-canister')).toEqual(['alternate-colors', 'single', 'kings', 1, 0, 0, false, false, 0, 8, 'all']);
    expect(pick('storehouse')).toEqual(['same-suit', 'whole-pile', 'reserve-or-waste', 1, 2, 1, false, false, 13, 4, 1]);
    expect(pick('canfield')).toEqual(['alternate-colors', 'whole-pile', 'auto-reserve-then-waste', 3, 'unlimited', 'dealt', true, false, 13, 4, 1]);
    expect(pick('canfield-relaxed')).toEqual(['alternate-colors', 'runs', 'any', 3, 'unlimited', 'dealt', true, true, 13, 4, 1]);
    expect(pick('canfield-sequences')).toEqual(['alternate-colors', 'runs', 'auto-reserve-then-any', 3, 'unlimited', 'dealt', false, false, 13, 4, 1]);
    expect(resolveRules('storehouse').basesOut).toBe(true);
  });

  it('sizes the stock from the layout', () => {
    expect(stockSize(resolveRules('canfield'))).toBe(34);
    expect(stockSize(resolveRules('storehouse'))).toBe(31);
    expect(stockSize(resolveRules('canister'))).toBe(0);
    expect(deckSize(resolveRules('canister', { ranks: 3 }))).toBe(12);
  });

  it('prints rules as JSON with the base as a rank', () => {
    expect(rulesToJson(resolveRules('storehouse')).base).toBe('2');
    expect(rulesToJson(resolveRules('canfield')).base).toBe('dealt');
  });
});

describe('overrides', () => {
  it('canfield drawing one card', () => {
    const r = resolveRules('canfield', { draw: 1 });
    expect(r.draw).toBe(1);
    expect(r.redeals).toBe('unlimited');
    expect(r.game).toBe('canfield');
  });

  it('storehouse with no redeals, or unlimited ones', () => {
    expect(resolveRules('storehouse', { redeals: 0 }).redeals).toBe(0);
    expect(resolveRules('storehouse', { redeals: 'unlimited' }).redeals).toBe('unlimited');
  });

  it('takes CLI-style text for numbers and flags, and ranks as text for the base', () => {
    const r = resolveRules('canfield', { draw: '1', wrap: 'false', base: '8', redeals: '3' } as Record<string, unknown>);
    expect([r.draw, r.wrap, r.base, r.redeals]).toEqual([1, false, 7, 3]);
    expect(resolveRules('canfield', { base: 'q' }).base).toBe(11);
    expect(resolveRules('canfield', { base: 0 }).base).toBe(0);
  });

  it('small decks for brute force: fewer ranks and a smaller layout', () => {
    const r = resolveRules('canfield', { ranks: 4, reserve: 3, piles: 2 });
    expect(stockSize(r)).toBe(16 - 3 - 1 - 2);
    expect(resolveRules('canister', { ranks: 2, piles: 3 }).piles).toBe(3);
  });

  it('ignores options given as undefined', () => {
    expect(resolveRules('canfield', { draw: undefined })).toEqual(resolveRules('canfield'));
  });
});

describe('validation messages', () => {
  it.each([
    ['unknown game', () => resolveRules('klondike'), 'unknown game "klondike": expected one of canister, american-canister'],
    ['unknown option', () => resolveRules('canfield', { colour: 1 } as Record<string, unknown>), 'unknown rules option "colour"'],
    ['ranks 0', () => resolveRules('canister', { ranks: 0 }), 'bad rules option ranks: 0 (expected a whole number from 1 to 13)'],
    ['ranks 14', () => resolveRules('canister', { ranks: 14 }), 'bad rules option ranks: 14'],
    ['draw 0', () => resolveRules('canfield', { draw: 0 }), 'bad rules option draw: 0 (expected a whole number from 1 to 52)'],
    ['draw 1.5', () => resolveRules('canfield', { draw: 1.5 }), 'bad rules option draw: 1.5'],
    ['redeals -2', () => resolveRules('storehouse', { redeals: -2 }), 'bad rules option redeals: -2'],
    ['redeals text', () => resolveRules('storehouse', { redeals: 'many' } as Record<string, unknown>), 'bad rules option redeals: "many"'],
    ['build', () => resolveRules('canfield', { build: 'red-black' } as Record<string, unknown>), 'bad rules option build: "red-black" (expected one of any-suit, alternate-colors, same-suit)'],
    ['move', () => resolveRules('canfield', { move: 'pairs' } as Record<string, unknown>), 'bad rules option move: "pairs"'],
    ['spaces', () => resolveRules('canfield', { spaces: 'queens' } as Record<string, unknown>), 'bad rules option spaces: "queens"'],
    ['base', () => resolveRules('canfield', { base: 'Z' }), 'bad rules option base: "Z" (expected a rank such as A or 2, or "dealt")'],
    ['wrap', () => resolveRules('canfield', { wrap: 'yes' } as Record<string, unknown>), 'bad rules option wrap: "yes" (expected true or false)'],
    ['basesOut', () => resolveRules('storehouse', { basesOut: 1 } as Record<string, unknown>), 'bad rules option basesOut: 1'],
    ['foundationToTableau', () => resolveRules('canfield', { foundationToTableau: 'no' } as Record<string, unknown>), 'bad rules option foundationToTableau: "no"'],
    ['reserve', () => resolveRules('canfield', { reserve: -1 }), 'bad rules option reserve: -1'],
    ['piles', () => resolveRules('canfield', { piles: 0 }), 'bad rules option piles: 0 (expected a whole number from 1 to 16)'],
    ['pileCards', () => resolveRules('canfield', { pileCards: 'some' } as Record<string, unknown>), 'bad rules option pileCards: "some"'],
    ['draw on canister', () => resolveRules('canister', { draw: 3 }), 'bad rules option draw: canister deals every card to the tableau, so there is no stock to draw from'],
    ['redeals on canister', () => resolveRules('canister', { redeals: 1 }), 'bad rules option redeals: canister deals every card to the tableau'],
    ['base beyond ranks', () => resolveRules('canister', { ranks: 3, base: '5' }), 'bad rules: base 5 is not among the 3 ranks per suit (A..3)'],
    ['storehouse with one rank', () => resolveRules('storehouse', { ranks: 1 }), 'bad rules: base 2 is not among the 1 ranks per suit'],
    ['bases out with a dealt base', () => resolveRules('canfield', { basesOut: true }), 'bad rules: basesOut needs a fixed base rank, not "dealt"'],
    ['reserve with everything on the tableau', () => resolveRules('canister', { reserve: 3 }), 'bad rules: pileCards "all" deals the whole deck to the tableau, so reserve must be 0'],
    ['dealt base with everything on the tableau', () => resolveRules('canister', { base: 'dealt' }), 'bad rules: pileCards "all" leaves no card to deal to the foundation'],
    ['layout larger than the deck', () => resolveRules('canfield', { ranks: 4 }), 'bad rules: the layout (reserve 13, 4 piles of 1) needs more than the 16 cards of the deck'],
    ['draw with no stock left', () => resolveRules('canfield', { ranks: 5, reserve: 15, draw: 1 }), 'bad rules option draw: this layout leaves no stock to draw from'],
    ['spaces from a reserve the game lacks', () => resolveRules('canister', { spaces: 'reserve-or-waste' }), 'bad rules option spaces: "reserve-or-waste" fills spaces from the reserve or waste, but this game has neither'],
    ['empty piles the reserve must fill at once', () => resolveRules('canfield', { pileCards: 0 }), 'bad rules option pileCards: 0 deals every pile empty, but spaces "auto-reserve-then-waste" fill an empty pile from the reserve at once'],
    ['empty piles in canfield-sequences', () => resolveRules('canfield-sequences', { pileCards: 0 }), 'bad rules option pileCards: 0 deals every pile empty, but spaces "auto-reserve-then-any"'],
  ])('refuses %s', (_name, action, message) => {
    expectError(action, message);
  });
});
