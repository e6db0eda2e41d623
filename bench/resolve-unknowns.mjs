#!/usr/bin/env node
// Solves again, with the current solver, the deals a result file left undecided (unknown), and
// prints how many are now won, lost or still unknown. The file itself is not changed.
//
//   node bench/resolve-unknowns.mjs results/american-canister-100k.msgpack --time-limit 2 [--shard K/N]
//
// With --shard K/N only every N-th undecided deal from the K-th is solved (run N at once on N cores).
//
// With --decided it solves the deals the file did decide instead, and counts every verdict that
// differs from the file's (a regression check of a new solver version against an old run's file;
// exit code 1 on any difference or on a win that does not replay).
import { dealFromSeed, presetRules, readResults, replay, resolveRules, rulesToJson, Solver } from '../dist/index.js';

const UNKNOWN_CODES = new Set([2, 3, 4, 6]); // nodes, time, memory, other (docs/winrate.md)

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
if (!file) {
  console.error('usage: node bench/resolve-unknowns.mjs FILE.msgpack [--time-limit S] [--shard K/N] [--decided]');
  process.exit(2);
}
const timeLimitMs = Number(option('--time-limit', '10')) * 1000;
const [k, n] = option('--shard', '1/1').split('/').map(Number);
if (!(timeLimitMs > 0) || !(k >= 1 && n >= k)) {
  console.error('resolve-unknowns: --time-limit needs seconds > 0 and --shard K/N with 1 <= K <= N');
  process.exit(2);
}

const set = readResults(file, { details: false });
const t = set.table;
// The file's rules as overrides of its preset (only the options that differ).
const preset = rulesToJson(presetRules(set.header.game));
const overrides = Object.fromEntries(
  Object.entries(set.header.rules ?? {}).filter(([key, value]) => key !== 'game' && JSON.stringify(value) !== JSON.stringify(preset[key])),
);
const rules = resolveRules(set.header.game, overrides);
const decided = args.includes('--decided');
// Verdict codes of the file (docs/winrate.md): 0 unwinnable, 1 winnable.
const wanted = decided ? (code) => code === 0 || code === 1 : (code) => UNKNOWN_CODES.has(code);
const before = new Map();
for (let i = 0; i < t.size; i++) if (wanted(t.code[i])) before.set(t.deal[i], t.code[i] === 1 ? 'winnable' : 'unwinnable');
const deals = [...before.keys()].sort((a, b) => a - b);
const mine = deals.filter((_, i) => i % n === k - 1);
let differ = 0;
const solver = new Solver();
const count = { winnable: 0, unwinnable: 0, unknown: 0 };
let replayed = 0;
for (const deal of mine) {
  const position = dealFromSeed(rules, deal);
  const result = solver.solve(position, { timeLimitMs });
  count[result.verdict]++;
  if (decided && result.verdict !== 'unknown' && result.verdict !== before.get(deal)) {
    console.error(`deal ${deal}: ${result.verdict} now, ${before.get(deal)} in the file`);
    differ++;
    process.exitCode = 1;
  }
  // Every new win is replayed by the referee, independently of the solver.
  if (result.verdict === 'winnable') {
    const check = replay(position, result.moves);
    if (!check.legal || !check.won) {
      console.error(`deal ${deal}: the solver's solution does not replay to a win`);
      process.exitCode = 1;
    } else replayed++;
  }
}
console.log(
  `${file}: ${deals.length} ${decided ? 'decided' : 'undecided'} deals; shard ${k}/${n}: ${mine.length} solved again at ${timeLimitMs / 1000} s: ` +
    `won ${count.winnable} (${replayed} replayed to a win by the referee), lost ${count.unwinnable}, ${decided ? 'now' : 'still'} unknown ${count.unknown}` +
    (decided ? `; verdicts that differ from the file's: ${differ}` : ''),
);
