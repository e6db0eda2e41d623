#!/usr/bin/env node
// The wins of a result file, solved again in a game whose rules only add moves: an audit of the
// looser game's "unwinnable" on every deal the file won, at full size and on as many deals as the
// file holds (test/search/relaxations.test.ts does the same on deals 1-40, docs/algorithms.md, "How
// we know it is right"). Every line of play of the file's game is one of the looser game, so each of
// those deals is winnable there: a deal called unwinnable there is a solver bug, named on stderr,
// and the exit code is 1. The two searches share nothing but the deal.
//
//   node bench/wins-elsewhere.mjs results/canfield-nowrap-1-20000-10s.msgpack --game canfield
//   node bench/wins-elsewhere.mjs FILE --game canfield-sequences --rules '{"wrap":true}' --time-limit 10 --shard 1/2
//
// It does not check that the looser game really is looser: that is the caller's claim (the pairs
// and their reasons are in test/search/relaxations.test.ts). With --shard K/N only every N-th won
// deal from the K-th is solved (run N at once on N cores).
import { dealFromSeed, replay, resolveRules, Solver } from '../dist/index.js';
import { commandLine, dealsWhere, failer, openResults, sameLayout, shardOf, WON } from './result-deals.mjs';

const args = process.argv.slice(2);
const fail = failer('wins-elsewhere');
const { file, option } = commandLine(args, ['--game', '--rules', '--time-limit', '--shard'], fail);
const game = option('--game');
if (!file || !game) fail('usage: node bench/wins-elsewhere.mjs FILE.msgpack --game GAME [--rules JSON] [--time-limit S] [--shard K/N]');
let looserOptions;
try {
  looserOptions = JSON.parse(option('--rules', '{}'));
} catch {
  fail(`--rules needs rules options as JSON, e.g. '{"wrap":true}'`);
}
const timeLimitMs = Number(option('--time-limit', '10')) * 1000;
if (!(timeLimitMs > 0)) fail('--time-limit needs seconds > 0');

const { set, options: strictOptions, rules: strictRules } = openResults(file, fail);
let looserRules;
try {
  looserRules = resolveRules(game, looserOptions);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const won = [...dealsWhere(set, (code) => code === WON).keys()];
const shard = option('--shard', '1/1');
const mine = shardOf(won, shard, fail);

const solver = new Solver();
const count = { winnable: 0, unwinnable: 0, unknown: 0 };
let replayed = 0;
let otherLayout = 0;
const started = performance.now();
for (const deal of mine) {
  if (!sameLayout(strictRules, looserRules, deal)) {
    otherLayout++;
    continue;
  }
  const position = dealFromSeed(looserRules, deal);
  const result = solver.solve(position, { timeLimitMs });
  count[result.verdict]++;
  if (result.verdict === 'unwinnable') {
    console.error(`deal ${deal}: won in the file's game, called unwinnable in ${game} ${JSON.stringify(looserOptions)}`);
    process.exitCode = 1;
  }
  if (result.verdict === 'winnable') {
    const check = replay(position, result.moves);
    if (!check.legal || !check.won) {
      console.error(`deal ${deal}: the solution in ${game} does not replay to a win`);
      process.exitCode = 1;
    } else replayed++;
  }
}
if (otherLayout > 0) {
  console.error(`${otherLayout} deals are laid out differently in ${game}: not solved, the comparison does not hold`);
  process.exitCode = 1;
}
const seconds = (performance.now() - started) / 1000;
console.log(
  `${file} (${set.header.game} ${JSON.stringify(strictOptions)}): ${won.length} won deals; ` +
    `shard ${shard}: ${mine.length} solved in ${game} ${JSON.stringify(looserOptions)} at ${timeLimitMs / 1000} s in ${seconds.toFixed(0)} s: ` +
    `won ${count.winnable} (${replayed} replayed to a win by the referee), unknown ${count.unknown}, ` +
    `unwinnable ${count.unwinnable} (each a solver bug)`,
);
