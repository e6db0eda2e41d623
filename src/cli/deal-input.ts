import type { Argv } from 'yargs';
import { dealFromDeckText, dealFromSeed, formatMove, parseMoves, parsePosition, PatienceError, type Position, PRESET_NAMES, replay, resolveRules } from '../index';
import { readsStdin, readText, sourceName } from './io';
import { ruleOverrides, type RuleFlagArgs, withRuleFlags } from './rule-flags';

/**
 * The deal a command works on, given exactly one way: `<game> --seed N`, `<game> --deck "52 codes"`,
 * or `--position file.json` (`-` reads standard input; the file names its game). Rule override
 * flags apply on top of the game's preset, or of the position file's own `rules`. `--after` plays
 * a list of moves first (a player's game so far): the command works on the position they lead to.
 */
export interface DealArgs extends RuleFlagArgs {
  game?: string;
  seed?: string;
  deck?: string;
  position?: string;
  after?: string;
}

const GROUP = 'Deal (exactly one):';
const SOURCES = ['seed', 'deck', 'position'] as const;

/** Adds the `[game]` positional, --seed/--deck/--position and the rule override flags. */
export function withDealOptions<T>(yargs: Argv<T>): Argv<T & DealArgs> {
  const y = yargs
    .positional('game', { type: 'string', describe: `the game: ${PRESET_NAMES.join(', ')}` })
    .option('seed', { type: 'string', describe: 'deal number, 0 to 2^53-1', group: GROUP, requiresArg: true })
    .option('deck', { type: 'string', describe: 'deck order: every card code of the deck (52 cards), first dealt first', group: GROUP, requiresArg: true })
    .option('position', { type: 'string', describe: 'position JSON file, or - for standard input', group: GROUP, requiresArg: true })
    .option('after', {
      type: 'string',
      describe: 'play these moves first (a file, one move a line as solve --moves-only prints them, or - for standard input): the position they lead to',
      requiresArg: true,
    });
  return withRuleFlags(y) as Argv<T & DealArgs>;
}

function parseSeed(text: string): number {
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(Number(text.trim()))) throw new PatienceError(`bad --seed "${text}": expected a deal number, a whole number from 0 to 2^53-1`);
  return Number(text.trim());
}

/** Reads the deal the arguments describe; every problem is a one-line PatienceError. */
export function readDeal(args: DealArgs): Position {
  const given = SOURCES.filter((key) => args[key] !== undefined);
  if (given.length === 0) {
    throw new PatienceError('no deal given: use <game> --seed N, <game> --deck "<52 cards>", or --position <file.json>');
  }
  if (given.length > 1) {
    throw new PatienceError(`--${given[0]} and --${given[1]} contradict each other: give exactly one of --seed, --deck, --position`);
  }
  if (readsStdin(args.after) && readsStdin(args.position)) throw new PatienceError('--position and --after cannot both read standard input');
  const position = readStart(args, given[0]!);
  return args.after === undefined ? position : playMoves(position, args.after);
}

function readStart(args: DealArgs, source: string): Position {
  const overrides = ruleOverrides(args);
  if (args.position !== undefined) return readPositionFile(args.position, args.game, overrides);
  if (args.game === undefined) {
    throw new PatienceError(`--${source} needs a game before it, one of: ${PRESET_NAMES.join(', ')}`);
  }
  const rules = resolveRules(args.game, overrides);
  return args.seed !== undefined ? dealFromSeed(rules, parseSeed(args.seed)) : dealFromDeckText(rules, args.deck!);
}

/** The position after the moves of file `path` (`--after`), each judged by the referee. */
function playMoves(start: Position, path: string): Position {
  if (path === '') throw new PatienceError('--after needs a file name, or - for standard input');
  const name = sourceName(path);
  let moves;
  try {
    moves = parseMoves(readText(path, 'moves', 'after'), start);
  } catch (e) {
    if (e instanceof PatienceError) throw new PatienceError(`--after ${name}: ${e.message}`);
    throw e;
  }
  const result = replay(start, moves);
  if (!result.legal) {
    throw new PatienceError(`--after ${name}: move ${result.failedAt! + 1} (${formatMove(moves[result.failedAt!]!)}) is illegal: ${result.reason}`);
  }
  return result.final;
}

function readPositionFile(path: string, game: string | undefined, overrides: Record<string, unknown>): Position {
  const name = sourceName(path);
  const text = readText(path, 'position');
  try {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return parsePosition(text); // refused with the library's "malformed JSON" message
    }
    if (json === null || typeof json !== 'object' || Array.isArray(json)) return parsePosition(text);
    const obj = { ...(json as Record<string, unknown>) };
    if (game !== undefined) {
      if (obj.game === undefined) obj.game = game;
      else if (typeof obj.game === 'string' && obj.game.toLowerCase() !== game.toLowerCase()) {
        throw new PatienceError(`the game "${game}" contradicts the position's game "${obj.game}"`);
      }
    }
    const rules = obj.rules;
    if (Object.keys(overrides).length > 0 && (rules === undefined || (typeof rules === 'object' && rules !== null && !Array.isArray(rules)))) {
      obj.rules = { ...(rules as Record<string, unknown> | undefined), ...overrides };
    }
    return parsePosition(obj);
  } catch (e) {
    if (e instanceof PatienceError) throw new PatienceError(`${name}: ${e.message}`);
    throw e;
  }
}
