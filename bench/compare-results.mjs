#!/usr/bin/env node
// Two win-rate result files of the same deals, deal by deal: a game and a looser one (its rules only
// add moves, e.g. `canfield --no-wrap` and Hoyle's `canfield`). Prints how the deals both decided
// split (won in both, won only in the looser game, lost in both) and what the undecided ones of each
// are in the other; so it measures exactly what the looser rules are worth on those deals. It is also
// a check: every line of play of the stricter game is one of the looser game, so a deal won there
// and lost here is a solver bug. Each such deal is named on stderr and the exit code is 1.
//
//   node bench/compare-results.mjs results/canfield-nowrap-1-20000-60s.msgpack results/canfield-1-20000-60s.msgpack
//   node bench/compare-results.mjs A-1.msgpack+A-2.msgpack B.msgpack      # "+" joins files of one game
//
// Both sides must deal the same cards in the same places (checked on their first common deal), or
// their deal numbers are not the same deals. Which game is looser is the caller's claim (the pairs
// and their reasons are in test/search/relaxations.test.ts).
import { dealsWhere, failer, LOST, openResults, sameLayout, WON } from './result-deals.mjs';

const fail = failer('compare-results');
const args = process.argv.slice(2);
if (args.length !== 2 || args.some((a) => a.startsWith('--'))) {
  fail('usage: node bench/compare-results.mjs STRICTER.msgpack[+MORE] LOOSER.msgpack[+MORE]');
}

/** One side: the verdict code of every deal of its files, and its game's rules and label. */
function side(spec) {
  const codes = new Map();
  let rules;
  let label;
  for (const path of spec.split('+')) {
    const { set, options, rules: fileRules } = openResults(path, fail);
    const fileLabel = `${set.header.game}${Object.keys(options).length ? ` ${JSON.stringify(options)}` : ''}`;
    if (label !== undefined && fileLabel !== label) fail(`${path} is ${fileLabel}, not ${label} as the file before it`);
    label = fileLabel;
    rules = fileRules;
    for (const [deal, code] of dealsWhere(set, () => true)) {
      if (codes.has(deal)) fail(`deal ${deal} is in two files of ${spec}`);
      codes.set(deal, code);
    }
  }
  return { codes, rules, label };
}

const stricter = side(args[0]);
const looser = side(args[1]);
const common = [...stricter.codes.keys()].filter((d) => looser.codes.has(d)).sort((a, b) => a - b);
if (common.length === 0) fail('the two sides have no deal in common');
if (!sameLayout(stricter.rules, looser.rules, common[0])) {
  fail(`${stricter.label} and ${looser.label} lay out deal ${common[0]} differently: not the same deals`);
}

const name = (code) => (code === WON ? 'won' : code === LOST ? 'lost' : 'undecided');
const cells = new Map();
const wrong = [];
for (const deal of common) {
  const key = `${name(stricter.codes.get(deal))} ${name(looser.codes.get(deal))}`;
  cells.set(key, (cells.get(key) ?? 0) + 1);
  if (key === 'won lost') wrong.push(deal);
}
const cell = (a, b) => cells.get(`${a} ${b}`) ?? 0;
const fmt = (n) => n.toLocaleString('en-US');
console.log(`${fmt(common.length)} deals in both (${fmt(common[0])} .. ${fmt(common.at(-1))}): rows ${stricter.label}, columns ${looser.label}`);
console.log(`${''.padEnd(12)}${['won', 'lost', 'undecided'].map((c) => c.padStart(11)).join('')}`);
for (const a of ['won', 'lost', 'undecided']) {
  console.log(`${a.padEnd(12)}${['won', 'lost', 'undecided'].map((b) => fmt(cell(a, b)).padStart(11)).join('')}`);
}
console.log(
  `decided by both: ${fmt(['won', 'lost'].reduce((n, a) => n + cell(a, 'won') + cell(a, 'lost'), 0))}; ` +
    `won only in the looser game: ${fmt(cell('lost', 'won'))}; won only in the stricter game: ${fmt(cell('won', 'lost'))}`,
);
const share = (n) => `${((100 * n) / common.length).toFixed(3)}%`;
const low = cell('lost', 'won');
const high = low + cell('undecided', 'won') + cell('lost', 'undecided') + cell('undecided', 'undecided');
console.log(`the looser game wins ${fmt(low)} .. ${fmt(high)} more of these deals: ${share(low)} .. ${share(high)}`);
for (const deal of wrong) console.error(`deal ${deal}: won in ${stricter.label}, lost in the looser ${looser.label}`);
process.exit(wrong.length ? 1 : 0);
