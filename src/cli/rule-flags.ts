import type { Argv } from 'yargs';

/**
 * Flags that override a preset's rules, one per rules option (the names of docs/formats.md in
 * kebab-case). Values are passed to `resolveRules` as the user typed them, so every check and every
 * message comes from the library, the same as for the `rules` object of a position file.
 */
const VALUE_FLAGS = {
  draw: 'cards dealt from stock to waste at a time',
  redeals: 'times the waste may be turned over: a whole number, or unlimited',
  ranks: 'ranks per suit, 1-13 (A, 2, 3, ...): small decks for testing',
  build: 'tableau build: any-suit, alternate-colors or same-suit',
  move: 'what moves between piles: single, runs or whole-pile',
  spaces: 'what fills a space: any, kings, reserve-or-waste, auto-reserve-then-waste or auto-reserve-then-any',
  base: 'foundation base rank (A, 2, ..., K), or dealt',
  reserve: 'cards dealt to the reserve',
  piles: 'number of tableau piles',
  'pile-cards': 'cards dealt to each tableau pile, or all (the whole deck, round-robin)',
} as const;

const BOOLEAN_FLAGS = {
  wrap: 'tableau builds round the corner (--no-wrap: the order starts at the base)',
  'foundation-to-tableau': 'a foundation top card may come back to the tableau',
  'bases-out': 'the four base cards start the foundations before dealing',
} as const;

const camel = (flag: string): string => flag.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

export interface RuleFlagArgs {
  draw?: string;
  redeals?: string;
  ranks?: string;
  build?: string;
  move?: string;
  spaces?: string;
  base?: string;
  reserve?: string;
  piles?: string;
  pileCards?: string;
  wrap?: boolean;
  foundationToTableau?: boolean;
  basesOut?: boolean;
}

const GROUP = 'Rule overrides (on top of the game or position file):';

export function withRuleFlags<T>(yargs: Argv<T>): Argv<T & RuleFlagArgs> {
  let y = yargs as Argv<unknown>;
  for (const [flag, describe] of Object.entries(VALUE_FLAGS)) y = y.option(flag, { type: 'string', describe, group: GROUP, requiresArg: true });
  for (const [flag, describe] of Object.entries(BOOLEAN_FLAGS)) y = y.option(flag, { type: 'boolean', describe, group: GROUP });
  return y as Argv<T & RuleFlagArgs>;
}

/** The rules options the user set on the command line (absent flags are left out). */
export function ruleOverrides(args: RuleFlagArgs): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  const a = args as Record<string, unknown>;
  for (const flag of [...Object.keys(VALUE_FLAGS), ...Object.keys(BOOLEAN_FLAGS)]) {
    const key = camel(flag);
    const value = a[key];
    if (typeof value === 'string' || typeof value === 'boolean') out[key] = value;
  }
  return out;
}
