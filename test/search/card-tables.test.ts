import { describe, expect, it } from 'vitest';
import { cardSuit, makeCard } from '../../src/cards/card';
import { dealFromSeed } from '../../src/rules/deal';
import { buildsOn, cardOrder } from '../../src/rules/order';
import { PRESET_NAMES, resolveRules, type Rules } from '../../src/rules/rules';
import { cardTables } from '../../src/search/card-tables';
import { Engine } from '../../src/search/engine';
import { Solver } from '../../src/search/solver';

// The card tables are made once for each ranks / wrap / build / base and shared by every board
// (src/search/card-tables.ts). These tests check them against the rules worked out card by card,
// and that sharing them is safe: no search writes into them.

/** Whether card c may be built on card t, by the rules' own order (`buildsOn`), never on itself. */
const fitsByRules = (rules: Rules, base: number, c: number, t: number): boolean => c !== t && buildsOn(rules, base, c, t);

const VARIANTS: [string, object][] = [
  ...PRESET_NAMES.map((g): [string, object] => [g, {}]),
  ['canfield', { ranks: 5, wrap: false }],
  ['canfield-sequences', { build: 'any-suit' }],
  ['storehouse', { ranks: 5, reserve: 3 }],
];

describe('the card tables', () => {
  it.each(VARIANTS)('%s %j: fits, builders, order and neighbours are those of the rules', (game, options) => {
    const rules = resolveRules(game, options);
    for (const base of rules.base === 'dealt' ? [0, 3, rules.ranks - 1] : [rules.base]) {
      const t = cardTables(rules, base);
      const cards = [0, 1, 2, 3].flatMap((s) => Array.from({ length: rules.ranks }, (_, r) => makeCard(s, r)));
      for (const c of cards) {
        expect(t.order[c]).toBe(cardOrder(rules, base, c));
        const o = cardOrder(rules, base, c);
        const succ = cards.find((d) => cardSuit(d) === cardSuit(c) && cardOrder(rules, base, d) === o + 1);
        const pred = cards.find((d) => cardSuit(d) === cardSuit(c) && cardOrder(rules, base, d) === o - 1);
        expect(t.succOf[c]).toBe(succ ?? 255);
        expect(t.predOf[c]).toBe(pred ?? 255);
        const on = cards.filter((d) => fitsByRules(rules, base, d, c));
        for (const d of cards) expect(t.fits[d * 64 + c]).toBe(fitsByRules(rules, base, d, c) ? 1 : 0);
        expect([...t.builders.slice(c * 4, c * 4 + 4)]).toEqual([...on, 255, 255, 255, 255].slice(0, 4));
        for (const [k, d] of on.entries()) expect(t.choiceOf[d]).toBe(k);
      }
    }
  });

  it('are made once for the same ranks, wrap, build and base, and apart for any other', () => {
    const hoyle = resolveRules('canfield');
    expect(cardTables(hoyle, 4)).toBe(cardTables(resolveRules('canfield'), 4));
    const others = [cardTables(hoyle, 5), cardTables(resolveRules('canfield', { wrap: false }), 4), cardTables(resolveRules('canfield-sequences', { build: 'any-suit' }), 4), cardTables(resolveRules('canfield', { ranks: 12 }), 4)];
    for (const other of others) expect(other).not.toBe(cardTables(hoyle, 4));
    const a = new Engine(dealFromSeed(hoyle, 1));
    const b = new Engine(dealFromSeed(hoyle, 1));
    expect(a.fits).toBe(b.fits);
  });

  it('are not written by a search of any preset', () => {
    const snapshot = (t: ReturnType<typeof cardTables>) => [t.order, t.fits, t.builders, t.succOf, t.predOf, t.choiceOf].map((a) => [...a].join(','));
    for (const game of PRESET_NAMES) {
      const deal = dealFromSeed(resolveRules(game), 3);
      const tables = cardTables(deal.rules, deal.baseRank);
      const before = snapshot(tables);
      new Solver().solve(deal, { nodeLimit: 30_000 });
      expect(snapshot(tables)).toEqual(before);
    }
  });
});
