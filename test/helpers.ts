import { parseCard } from '../src/cards/card';
import { resolveRules, type RulesOptions } from '../src/rules/rules';
import { foundationCards, type Position, validatePosition } from '../src/rules/position';
import { orderedDeck } from '../src/cards/card';
import { PatienceError } from '../src/errors';
import { expect } from 'vitest';
import { makeHeader } from '../src/analyze/result-file';

/** Cards written as text, e.g. 'KS QH JC' (bottom to top); '' or '-' is an empty pile. */
export const cards = (text = ''): number[] =>
  text
    .split(/\s+/)
    .filter((w) => w.length > 0 && w !== '-')
    .map(parseCard);

export interface Layout {
  rules?: RulesOptions;
  /** Cards on each foundation, C D H S, counted from the base. */
  foundations?: number[];
  base?: string;
  reserve?: string;
  tableau: string[];
  /** The stock bottom to top (the last is dealt next); 'rest' puts there every card not placed elsewhere. */
  stock?: string;
  waste?: string;
  redealsUsed?: number;
}

/** A hand-made position, validated (so every test position is a real one under its rules). */
export function make(game: string, layout: Layout): Position {
  const rules = resolveRules(game, layout.rules ?? {});
  const baseText = layout.base ?? (rules.base === 'dealt' ? undefined : 'fixed');
  if (baseText === undefined) throw new Error('test layout needs a base for a dealt-base game');
  const position: Position = {
    rules,
    baseRank: baseText === 'fixed' ? (rules.base as number) : parseCard(`${baseText}C`) % 13,
    foundations: layout.foundations ?? [0, 0, 0, 0],
    reserve: cards(layout.reserve),
    tableau: layout.tableau.map(cards),
    stock: layout.stock === 'rest' ? [] : cards(layout.stock),
    waste: cards(layout.waste),
    redealsUsed: layout.redealsUsed ?? 0,
  };
  if (layout.stock === 'rest') {
    const placed = new Set([...position.reserve, ...position.tableau.flat(), ...position.waste]);
    for (let s = 0; s < 4; s++) for (const c of foundationCards(position, s)) placed.add(c);
    position.stock = orderedDeck(rules.ranks).filter((c) => !placed.has(c));
  }
  validatePosition(position);
  return position;
}

/** Asserts that `action` throws a PatienceError whose one-line message matches `pattern`. */
export function expectError(action: () => unknown, pattern: RegExp | string): void {
  let error: unknown;
  try {
    action();
  } catch (e) {
    error = e;
  }
  expect(error, 'expected a PatienceError').toBeInstanceOf(PatienceError);
  const message = (error as Error).message;
  expect(message).not.toContain('\n');
  if (typeof pattern === 'string') expect(message).toContain(pattern);
  else expect(message).toMatch(pattern);
}

/** A tiny deterministic generator for choices inside one property run (mulberry32). */
export function mulberry(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A result file header for tests: canfield deals 1-20, node limit 1000, solutions saved; `over` changes fields. */
export const resultHeader = (over: Partial<Parameters<typeof makeHeader>[0]> = {}) =>
  makeHeader({
    game: 'canfield',
    rules: { game: 'canfield', draw: 3 },
    from: 1,
    deals: 20,
    shard: null,
    limits: { nodeLimit: 1000, timeLimitMs: null, memoryMiB: 16 },
    saveSolutions: true,
    ...over,
  });
