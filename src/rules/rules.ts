import { formatRank, RANKS_PER_SUIT_MAX, tryParseRank } from '../cards/card';
import { fail, shown } from '../errors';

/** How a card builds on a tableau pile (always one step down in the rules' rank order). */
export type BuildPolicy = 'any-suit' | 'alternate-colors' | 'same-suit';
/** What may move between tableau piles: one card, any built run at the top, or only a whole pile. */
export type MovePolicy = 'single' | 'runs' | 'whole-pile';
/**
 * What may fill an empty tableau pile.
 * - `any`: any card or movable run, from anywhere, at any time.
 * - `kings`: only a card of the highest rank in the order (a King when the base is the Ace).
 * - `reserve-or-waste`: the top card of the reserve or of the waste, at any time (Storehouse).
 * - `auto-reserve-then-waste`: the reserve's top card fills a space at once, as part of the move
 *   that made it; once the reserve is empty, the waste's top card may fill it at will (Canfield).
 * - `auto-reserve-then-any`: as above, but once the reserve is empty any card or run may fill it.
 */
export type SpacePolicy = 'any' | 'kings' | 'reserve-or-waste' | 'auto-reserve-then-waste' | 'auto-reserve-then-any';

export const BUILD_POLICIES: readonly BuildPolicy[] = ['any-suit', 'alternate-colors', 'same-suit'];
export const MOVE_POLICIES: readonly MovePolicy[] = ['single', 'runs', 'whole-pile'];
export const SPACE_POLICIES: readonly SpacePolicy[] = [
  'any',
  'kings',
  'reserve-or-waste',
  'auto-reserve-then-waste',
  'auto-reserve-then-any',
];

/** The rules of a game, every option filled in. A value of this type is what every module works from. */
export interface Rules {
  /** The preset these rules started from. */
  readonly game: string;
  /** Ranks per suit, 1..13 (A, 2, ... in that order); small decks serve brute-force checks. */
  readonly ranks: number;
  readonly build: BuildPolicy;
  readonly move: MovePolicy;
  readonly spaces: SpacePolicy;
  /** Cards dealt from stock to waste at a time. */
  readonly draw: number;
  /** Times the waste may be turned over into a new stock. */
  readonly redeals: number | 'unlimited';
  /**
   * Foundation base rank (0 = Ace ... 12 = King), or 'dealt': the card dealt after the reserve
   * starts the first foundation and its rank is the base.
   */
  readonly base: number | 'dealt';
  /** Storehouse: the four base cards are taken out before dealing and start the foundations. */
  readonly basesOut: boolean;
  /**
   * Tableau builds "round the corner": the rank below the base builds onto the base too. Without
   * wrap the tableau order starts at the base and nothing builds on a base-rank card.
   */
  readonly wrap: boolean;
  /** A foundation's top card may move back onto the tableau. */
  readonly foundationToTableau: boolean;
  /** Cards dealt to the reserve (the last dealt on top). */
  readonly reserve: number;
  /** Number of tableau piles. */
  readonly piles: number;
  /** Cards dealt to each tableau pile, or 'all': the rest of the deck round-robin (Canister). */
  readonly pileCards: number | 'all';
}

/** Options a user may override on top of a preset (JSON `rules`, CLI flags). Ranks are given as text. */
export interface RulesOptions {
  ranks?: number;
  build?: BuildPolicy;
  move?: MovePolicy;
  spaces?: SpacePolicy;
  draw?: number;
  redeals?: number | 'unlimited';
  base?: string | number;
  basesOut?: boolean;
  wrap?: boolean;
  foundationToTableau?: boolean;
  reserve?: number;
  piles?: number;
  pileCards?: number | 'all';
}

export interface Preset {
  readonly rules: Rules;
  readonly description: string;
}

const CANFIELD: Rules = {
  game: 'canfield',
  ranks: 13,
  build: 'alternate-colors',
  move: 'whole-pile',
  spaces: 'auto-reserve-then-waste',
  draw: 3,
  redeals: 'unlimited',
  base: 'dealt',
  basesOut: false,
  wrap: true,
  foundationToTableau: false,
  reserve: 13,
  piles: 4,
  pileCards: 1,
};

const CANISTER: Rules = {
  game: 'canister',
  ranks: 13,
  build: 'any-suit',
  move: 'runs',
  spaces: 'any',
  draw: 1,
  redeals: 0,
  base: 0,
  basesOut: false,
  wrap: false,
  foundationToTableau: false,
  reserve: 0,
  piles: 8,
  pileCards: 'all',
};

export const PRESETS: Readonly<Record<string, Preset>> = {
  canister: {
    rules: CANISTER,
    description: '8 open piles, build down regardless of suit, move built runs, any card fills a space',
  },
  'american-canister': {
    rules: { ...CANISTER, game: 'american-canister', build: 'alternate-colors' },
    description: 'Canister building down in alternating colours; alternating runs move; any card fills a space',
  },
  'british-canister': {
    rules: { ...CANISTER, game: 'british-canister', build: 'alternate-colors', move: 'single', spaces: 'kings' },
    description: 'Canister building down in alternating colours, single cards only, only a King fills a space',
  },
  storehouse: {
    rules: {
      game: 'storehouse',
      ranks: 13,
      build: 'same-suit',
      move: 'whole-pile',
      spaces: 'reserve-or-waste',
      draw: 1,
      redeals: 2,
      base: 1,
      basesOut: true,
      wrap: false,
      foundationToTableau: false,
      reserve: 13,
      piles: 4,
      pileCards: 1,
    },
    description: 'Thirteen Up: 2s start the foundations, aces high, build down in suit, whole piles move, 3 passes drawing 1',
  },
  canfield: {
    rules: CANFIELD,
    description: "Hoyle's Canfield: 13-card reserve fills spaces at once, whole piles move, draw 3, unlimited redeals",
  },
  'canfield-relaxed': {
    rules: { ...CANFIELD, game: 'canfield-relaxed', move: 'runs', spaces: 'any', foundationToTableau: true },
    description: 'Online Canfield: runs move, any card fills a space at will, foundation cards may come back',
  },
  'canfield-sequences': {
    rules: { ...CANFIELD, game: 'canfield-sequences', move: 'runs', spaces: 'auto-reserve-then-any', wrap: false },
    description: "Solvitaire's and Politaire's Canfield: runs move, tableau order starts at the base (no wrap)",
  },
};

export const PRESET_NAMES: readonly string[] = Object.keys(PRESETS);

export function presetRules(game: string): Rules {
  if (typeof game !== 'string') fail(`bad game ${shown(game)}: expected a game's name, one of ${PRESET_NAMES.join(', ')}`);
  const key = game.toLowerCase();
  // Own names only: "constructor" and "__proto__" are no games.
  const preset = Object.hasOwn(PRESETS, key) ? PRESETS[key] : undefined;
  if (!preset) fail(`unknown game "${game}": expected one of ${PRESET_NAMES.join(', ')}`);
  return preset.rules;
}

const KNOWN_OPTIONS = new Set([
  'ranks', 'build', 'move', 'spaces', 'draw', 'redeals', 'base', 'basesOut', 'wrap',
  'foundationToTableau', 'reserve', 'piles', 'pileCards',
]);

function wholeNumber(name: string, value: unknown, min: number, max: number, or = ''): number {
  const given = value;
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) value = Number(value);
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    fail(`bad rules option ${name}: ${shown(given)} (expected a whole number from ${min} to ${max}${or})`);
  }
  return value;
}

function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !allowed.includes(value as T)) {
    fail(`bad rules option ${name}: ${shown(value)} (expected one of ${allowed.join(', ')})`);
  }
  return value as T;
}

function flag(name: string, value: unknown): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (typeof value !== 'boolean') fail(`bad rules option ${name}: ${shown(value)} (expected true or false)`);
  return value;
}

/** The number of cards in a deck of these rules. */
export const deckSize = (rules: Rules): number => 4 * rules.ranks;

/** Cards that go to the stock after the layout is dealt. */
export function stockSize(rules: Rules): number {
  if (rules.pileCards === 'all') return 0;
  const out = (rules.basesOut ? 4 : 0) + (rules.base === 'dealt' ? 1 : 0);
  return deckSize(rules) - out - rules.reserve - rules.piles * rules.pileCards;
}

/**
 * A preset with the user's overrides applied and checked. Options that do not fit together are
 * refused with one line naming the option.
 */
export function resolveRules(game: string, options: RulesOptions | Record<string, unknown> = {}): Rules {
  const preset = presetRules(game);
  if (typeof options !== 'object' || options === null || Array.isArray(options)) fail(`bad rules options ${shown(options)}: expected an object of rule options`);
  const o = options as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (o[key] === undefined) continue;
    if (!KNOWN_OPTIONS.has(key)) fail(`unknown rules option "${key}": expected one of ${[...KNOWN_OPTIONS].join(', ')}`);
  }
  const has = (key: string) => o[key] !== undefined;
  const ranks = has('ranks') ? wholeNumber('ranks', o.ranks, 1, RANKS_PER_SUIT_MAX) : preset.ranks;
  let base: number | 'dealt' = preset.base;
  if (has('base')) {
    if (o.base === 'dealt') base = 'dealt';
    else if (typeof o.base === 'number' && Number.isInteger(o.base) && o.base >= 0 && o.base < 13) base = o.base;
    else {
      const r = typeof o.base === 'string' ? tryParseRank(o.base) : -1;
      if (r < 0) fail(`bad rules option base: ${JSON.stringify(o.base)} (expected a rank such as A or 2, or "dealt")`);
      base = r;
    }
  }
  let redeals: number | 'unlimited' = preset.redeals;
  if (has('redeals')) {
    redeals = o.redeals === 'unlimited' || o.redeals === 'inf' || o.redeals === -1 ? 'unlimited' : wholeNumber('redeals', o.redeals, 0, 1000, ', or unlimited');
  }
  let pileCards: number | 'all' = preset.pileCards;
  if (has('pileCards')) pileCards = o.pileCards === 'all' ? 'all' : wholeNumber('pileCards', o.pileCards, 0, 52);
  const rules: Rules = {
    game: preset.game,
    ranks,
    build: has('build') ? oneOf('build', o.build, BUILD_POLICIES) : preset.build,
    move: has('move') ? oneOf('move', o.move, MOVE_POLICIES) : preset.move,
    spaces: has('spaces') ? oneOf('spaces', o.spaces, SPACE_POLICIES) : preset.spaces,
    draw: has('draw') ? wholeNumber('draw', o.draw, 1, 52) : preset.draw,
    redeals,
    base,
    basesOut: has('basesOut') ? flag('basesOut', o.basesOut) : preset.basesOut,
    wrap: has('wrap') ? flag('wrap', o.wrap) : preset.wrap,
    foundationToTableau: has('foundationToTableau') ? flag('foundationToTableau', o.foundationToTableau) : preset.foundationToTableau,
    reserve: has('reserve') ? wholeNumber('reserve', o.reserve, 0, 52) : preset.reserve,
    piles: has('piles') ? wholeNumber('piles', o.piles, 1, 16) : preset.piles,
    pileCards,
  };
  checkRules(rules, new Set(Object.keys(o).filter(has)));
  return rules;
}

/** Refuses rules whose options contradict each other; `given` names the options the user set. */
export function checkRules(rules: Rules, given: ReadonlySet<string> = new Set()): void {
  const deck = deckSize(rules);
  if (rules.base !== 'dealt' && rules.base >= rules.ranks) {
    fail(`bad rules: base ${formatRank(rules.base)} is not among the ${rules.ranks} ranks per suit (A..${formatRank(rules.ranks - 1)})`);
  }
  if (rules.basesOut && rules.base === 'dealt') fail('bad rules: basesOut needs a fixed base rank, not "dealt"');
  if (rules.pileCards === 'all') {
    if (rules.reserve > 0) fail('bad rules: pileCards "all" deals the whole deck to the tableau, so reserve must be 0');
    if (rules.base === 'dealt') fail('bad rules: pileCards "all" leaves no card to deal to the foundation (base "dealt")');
    for (const key of ['draw', 'redeals']) {
      if (given.has(key)) fail(`bad rules option ${key}: ${rules.game} deals every card to the tableau, so there is no stock to draw from`);
    }
  }
  const stock = stockSize(rules);
  if (stock < 0) {
    fail(`bad rules: the layout (reserve ${rules.reserve}, ${rules.piles} piles of ${rules.pileCards}) needs more than the ${deck} cards of the deck`);
  }
  if (stock === 0 && rules.pileCards !== 'all') {
    for (const key of ['draw', 'redeals']) if (given.has(key)) fail(`bad rules option ${key}: this layout leaves no stock to draw from`);
  }
  const autoReserve = rules.spaces === 'auto-reserve-then-waste' || rules.spaces === 'auto-reserve-then-any';
  if ((autoReserve || rules.spaces === 'reserve-or-waste') && rules.reserve === 0 && stock === 0) {
    fail(`bad rules option spaces: "${rules.spaces}" fills spaces from the reserve or waste, but this game has neither`);
  }
  if (autoReserve && rules.reserve > 0 && rules.pileCards === 0) {
    fail(
      `bad rules option pileCards: 0 deals every pile empty, but spaces "${rules.spaces}" fill an empty pile from the reserve at once ` +
        '(deal at least 1 card a pile, or choose other spaces)',
    );
  }
}

/** Whether any reserve card fills a space at once, as part of the move that made the space. */
export const autoFillsFromReserve = (rules: Rules): boolean =>
  rules.spaces === 'auto-reserve-then-waste' || rules.spaces === 'auto-reserve-then-any';

/** The rules as plain JSON (ranks as text), the form printed by `patience games <name>`. */
export function rulesToJson(rules: Rules): Record<string, unknown> {
  return {
    ...rules,
    base: rules.base === 'dealt' ? 'dealt' : formatRank(rules.base),
  };
}

/**
 * The options of rules in their JSON form (`rulesToJson`, as a result file's header keeps them) that
 * differ from the preset `game`'s: what a user changed, e.g. `{ spaces: 'auto-reserve-then-waste' }`.
 */
export function changedOptions(game: string, json: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const preset = rulesToJson(presetRules(game));
  if (typeof json !== 'object' || json === null || Array.isArray(json)) fail(`bad rules ${shown(json)}: expected an object of rule options`);
  // No prototype: a "__proto__" key read from JSON stays a key (refused as unknown), never a prototype.
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(json)) if (key !== 'game' && json[key] !== preset[key]) out[key] = json[key];
  return out;
}

/**
 * Refuses a Rules object that resolveRules would not have made: an unknown game, a missing, extra or
 * out-of-range option (a hand-built `{ ...rules, draw: 0 }`), so that no search runs under rules it
 * cannot honour. What is wrong is named in one line.
 */
export function validateRules(rules: Rules): void {
  if (typeof rules !== 'object' || rules === null) fail(`bad rules ${shown(rules)}: expected the rules object resolveRules makes`);
  const json = rulesToJson(rules);
  const made = rulesToJson(resolveRules(rules.game, changedOptions(rules.game, json)));
  for (const key of Object.keys(made)) {
    if (!Object.hasOwn(json, key)) fail(`bad rules: ${key} is missing`);
    if (JSON.stringify(json[key]) !== JSON.stringify(made[key])) fail(`bad rules: ${key} ${JSON.stringify(json[key])} is not a setting (resolveRules reads it as ${JSON.stringify(made[key])})`);
  }
}
