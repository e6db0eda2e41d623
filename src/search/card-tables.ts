import { cardColour, makeCard } from '../cards/card';
import { rankAtOrder } from '../rules/order';
import type { Rules } from '../rules/rules';

/**
 * The tables a deal's rules give its cards: which card fits on which, each card's order above its
 * foundation's base, its neighbours in that order, and the cards that may be built on each. They
 * depend only on the ranks, the wrap, the build relation and the base rank, so they are worked out
 * once for each such combination and shared, read-only, by every `Board` that needs them: building
 * them was most of the cost of a new engine (about 50 of 65-95 µs), which a one-shot `solve()`, each
 * restart run and each solution's replay pay.
 */
export interface CardTables {
  /** Order of each card above its foundation's base (0 = base rank), by card code. */
  readonly order: Int8Array;
  /** fits[c * 64 + t]: card c may be built on card t on the tableau. */
  readonly fits: Uint8Array;
  /** builders[t * 4 ..]: the cards that may be built on card t (at most 4, in suit order), 255 past the last. */
  readonly builders: Uint8Array;
  /** The next and the previous card of each card's suit in foundation order (255: none). */
  readonly succOf: Uint8Array;
  readonly predOf: Uint8Array;
  /** choiceOf[c]: the place of card c among the builders of any card it may be built on (255: none). */
  readonly choiceOf: Uint8Array;
  /** The most builders of one card. */
  readonly mostBuilders: number;
  /** Whether each card has the same place among the builders of every card it may be built on. */
  readonly choicesConsistent: boolean;
}

const cache = new Map<string, CardTables>();

/** The card tables of `rules` with base rank `baseRank` (made once, then shared). */
export function cardTables(rules: Rules, baseRank: number): CardTables {
  const key = `${rules.ranks} ${rules.wrap} ${rules.build} ${baseRank}`;
  let tables = cache.get(key);
  if (tables === undefined) {
    tables = makeTables(rules, baseRank);
    cache.set(key, tables);
  }
  return tables;
}

function makeTables(rules: Rules, baseRank: number): CardTables {
  const R = rules.ranks;
  const order = new Int8Array(64);
  const succOf = new Uint8Array(64).fill(255);
  const predOf = new Uint8Array(64).fill(255);
  for (let suit = 0; suit < 4; suit++) {
    for (let o = 0; o < R; o++) order[makeCard(suit, rankAtOrder(rules, baseRank, o))] = o;
    for (let o = 1; o < R; o++) {
      const lo = makeCard(suit, rankAtOrder(rules, baseRank, o - 1));
      const hi = makeCard(suit, rankAtOrder(rules, baseRank, o));
      succOf[lo] = hi;
      predOf[hi] = lo;
    }
  }
  const fits = new Uint8Array(64 * 64);
  const builders = new Uint8Array(64 * 4).fill(255);
  for (let s1 = 0; s1 < 4; s1++) {
    for (let r1 = 0; r1 < R; r1++) {
      const c = makeCard(s1, r1);
      for (let s2 = 0; s2 < 4; s2++) {
        for (let r2 = 0; r2 < R; r2++) {
          const t = makeCard(s2, r2);
          const oc = order[c]!;
          const ot = order[t]!;
          const rankFits = rules.wrap ? (oc + 1) % R === ot : oc + 1 === ot;
          let suitFits = true;
          if (rules.build === 'alternate-colors') suitFits = cardColour(c) !== cardColour(t);
          else if (rules.build === 'same-suit') suitFits = s1 === s2;
          fits[c * 64 + t] = rankFits && suitFits && c !== t ? 1 : 0;
          if (fits[c * 64 + t] === 1) {
            let i = t * 4;
            while (builders[i] !== 255) i++;
            builders[i] = c;
          }
        }
      }
    }
  }
  // A card's place among the builders must not depend on the card it goes on (true of every rule
  // here: builders are listed in suit order, and the suits that fit do not depend on it).
  const choiceOf = new Uint8Array(64).fill(255);
  let most = 0;
  let consistent = true;
  for (let t = 0; t < 64; t++) {
    let k = 0;
    for (; k < 4 && builders[t * 4 + k] !== 255; k++) {
      const c = builders[t * 4 + k]!;
      if (choiceOf[c] !== 255 && choiceOf[c] !== k) consistent = false;
      choiceOf[c] = k;
    }
    if (k > most) most = k;
  }
  return { order, fits, builders, succOf, predOf, choiceOf, mostBuilders: most, choicesConsistent: consistent };
}
