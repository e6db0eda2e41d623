// Shared by the bench scripts that read a win-rate result file (resolve-unknowns, wins-elsewhere,
// solvitaire-space-rule, compare-results): the file and its rules, its deals by verdict code, a
// shard of them, their command-line options, and whether two games lay out a deal alike. Every
// problem is one line on stderr, prefixed with the script's name, and exit code 2.
import { changedOptions, dealFromSeed, readResults, resolveRules } from '../dist/index.js';

/** Verdict codes of a result file (docs/winrate.md). */
export const LOST = 0;
export const WON = 1;
export const UNKNOWN_CODES = new Set([2, 3, 4, 6]); // nodes, time, memory, other

/** A function that prints `script: message` and exits with code 2. */
export function failer(script) {
  return (message) => {
    console.error(`${script}: ${message}`);
    process.exit(2);
  };
}

/**
 * The command line: the first argument that is not an option or an option's value is the file;
 * `option(name, fallback)` reads an option's value. `valued` lists the options that take a value.
 */
export function commandLine(args, valued, fail) {
  const option = (name, fallback) => {
    const i = args.indexOf(name);
    if (i < 0) return fallback;
    if (i + 1 >= args.length) fail(`${name} needs a value`);
    return args[i + 1];
  };
  const file = args.find((a, i) => !a.startsWith('--') && (i === 0 || !valued.includes(args[i - 1])));
  return { file, option };
}

/** The result file at `path`, its game's options that differ from the preset, and its rules. */
export function openResults(path, fail) {
  try {
    const set = readResults(path, { details: false });
    const options = changedOptions(set.header.game, set.header.rules ?? {});
    return { set, options, rules: resolveRules(set.header.game, options) };
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
}

/** The deals of the file whose verdict code passes `wanted`, in deal order, with their codes. */
export function dealsWhere(set, wanted) {
  const t = set.table;
  const deals = new Map();
  for (let i = 0; i < t.size; i++) if (wanted(t.code[i])) deals.set(t.deal[i], t.code[i]);
  return new Map([...deals].sort((a, b) => a[0] - b[0]));
}

/** Every N-th deal of `deals` (a list in order) from the K-th, for `spec` "K/N". */
export function shardOf(deals, spec, fail) {
  const [k, n] = String(spec).split('/').map(Number);
  if (!(Number.isInteger(k) && Number.isInteger(n) && k >= 1 && n >= k)) fail('--shard needs K/N with 1 <= K <= N');
  return deals.filter((_, i) => i % n === k - 1);
}

/**
 * Whether two games deal `deal` alike: the same cards in the same places (reserve, piles, stock,
 * foundations), the rules aside. If not, their deal numbers are not the same deals.
 */
export function sameLayout(rulesA, rulesB, deal) {
  const layout = (rules) => JSON.stringify({ ...dealFromSeed(rules, deal), rules: null });
  return layout(rulesA) === layout(rulesB);
}
