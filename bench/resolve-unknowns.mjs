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
import { dealFromSeed, replay, Solver } from '../dist/index.js';
import { commandLine, dealsWhere, failer, LOST, openResults, shardOf, UNKNOWN_CODES, WON } from './result-deals.mjs';

const args = process.argv.slice(2);
const fail = failer('resolve-unknowns');
const { file, option } = commandLine(args, ['--time-limit', '--shard'], fail);
if (!file) fail('usage: node bench/resolve-unknowns.mjs FILE.msgpack [--time-limit S] [--shard K/N] [--decided]');
const timeLimitMs = Number(option('--time-limit', '10')) * 1000;
if (!(timeLimitMs > 0)) fail('--time-limit needs seconds > 0');

const { rules, set } = openResults(file, fail);
const decided = args.includes('--decided');
const wanted = decided ? (code) => code === LOST || code === WON : (code) => UNKNOWN_CODES.has(code);
const before = new Map([...dealsWhere(set, wanted)].map(([deal, code]) => [deal, code === WON ? 'winnable' : 'unwinnable']));
const deals = [...before.keys()];
const mine = shardOf(deals, option('--shard', '1/1'), fail);
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
  `${file}: ${deals.length} ${decided ? 'decided' : 'undecided'} deals; shard ${option('--shard', '1/1')}: ${mine.length} solved again at ${timeLimitMs / 1000} s: ` +
    `won ${count.winnable} (${replayed} replayed to a win by the referee), lost ${count.unwinnable}, ${decided ? 'now' : 'still'} unknown ${count.unknown}` +
    (decided ? `; verdicts that differ from the file's: ${differ}` : ''),
);
