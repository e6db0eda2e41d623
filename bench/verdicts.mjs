#!/usr/bin/env node
// Verdicts of one build, deal by deal, and the comparison of two builds' verdicts: the check that a
// new pruning rule changes no verdict. Every win is replayed by the referee of the same build.
//
//   node bench/verdicts.mjs solve --dist /tmp/old/dist --game canfield --from 1001 --count 2000 --node-limit 300000 > old.txt
//   node bench/verdicts.mjs solve --game canfield --from 1001 --count 2000 --node-limit 300000 > new.txt   # ./dist
//   node bench/verdicts.mjs compare old.txt new.txt
//
// `solve` prints one line a deal: "deal verdict nodes" and, for a win, "replayed" (or
// "NOT-REPLAYED"). `compare` prints how many deals each decided, how many verdicts differ (each one
// named) and the nodes of each; it exits 1 when a verdict differs or a win did not replay.
// --rules takes rules options as JSON, e.g. '{"draw":1,"redeals":2}'.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const USAGE = `usage: node bench/verdicts.mjs solve [--dist DIR] --game G [--rules JSON] [--from N] [--count N] [--node-limit N]
       node bench/verdicts.mjs compare A.txt B.txt`;

function fail(message) {
  console.error(`verdicts: ${message}`);
  process.exit(2);
}

async function solve(argv) {
  const o = { dist: 'dist', game: undefined, rules: '{}', from: 1, count: 100, nodeLimit: 300_000 };
  for (let i = 0; i < argv.length; i++) {
    const value = argv[++i];
    if (value === undefined) fail(`${argv[i - 1]} needs a value`);
    switch (argv[i - 1]) {
      case '--dist': o.dist = value; break;
      case '--game': o.game = value; break;
      case '--rules': o.rules = value; break;
      case '--from': o.from = Number(value); break;
      case '--count': o.count = Number(value); break;
      case '--node-limit': o.nodeLimit = Number(value); break;
      default: fail(`unknown option ${argv[i - 1]}\n${USAGE}`);
    }
  }
  if (o.game === undefined) fail(`--game is needed\n${USAGE}`);
  for (const k of ['from', 'count', 'nodeLimit']) if (!Number.isInteger(o[k]) || o[k] < 0) fail(`--${k} needs a whole number`);
  let options;
  try {
    options = JSON.parse(o.rules);
  } catch {
    fail(`--rules is not JSON: ${o.rules}`);
  }
  const lib = await import(pathToFileURL(resolve(o.dist, 'index.js')).href);
  let rules;
  try {
    rules = lib.resolveRules(o.game, options);
  } catch (e) {
    fail(e instanceof Error ? e.message : String(e));
  }
  const solver = new lib.Solver({ memoryMiB: 1024 });
  for (let deal = o.from; deal < o.from + o.count; deal++) {
    const position = lib.dealFromSeed(rules, deal);
    const result = solver.solve(position, { nodeLimit: o.nodeLimit });
    let replayed = '';
    if (result.verdict === 'winnable') {
      const r = lib.replay(position, result.moves);
      replayed = r.legal && r.won ? ' replayed' : ' NOT-REPLAYED';
    }
    console.log(`${deal} ${result.verdict} ${result.nodes}${replayed}`);
  }
}

function read(file) {
  const rows = new Map();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const [deal, verdict, nodes, replayed] = line.trim().split(/\s+/);
    rows.set(Number(deal), { verdict, nodes: Number(nodes), replayed });
  }
  return rows;
}

function compare([a, b]) {
  if (a === undefined || b === undefined) fail(USAGE);
  const A = read(a);
  const B = read(b);
  const count = (rows, v) => [...rows.values()].filter((r) => r.verdict === v).length;
  const nodes = (rows) => [...rows.values()].reduce((s, r) => s + r.nodes, 0);
  const differ = [];
  let onlyA = 0;
  let onlyB = 0;
  let both = 0;
  for (const [deal, x] of A) {
    const y = B.get(deal);
    if (y === undefined) continue;
    both++;
    const dx = x.verdict !== 'unknown';
    const dy = y.verdict !== 'unknown';
    if (dx && dy && x.verdict !== y.verdict) differ.push(deal);
    if (dx && !dy) onlyA++;
    if (dy && !dx) onlyB++;
  }
  const notReplayed = [...A, ...B].filter(([, r]) => r.replayed === 'NOT-REPLAYED').map(([d]) => d);
  for (const [name, rows] of [[a, A], [b, B]]) {
    console.log(`${name}: ${count(rows, 'winnable')} won, ${count(rows, 'unwinnable')} lost, ${count(rows, 'unknown')} unknown, ${nodes(rows).toLocaleString('en-US')} nodes`);
  }
  console.log(`${both} deals in both: ${differ.length} verdicts differ${differ.length ? ` (deals ${differ.join(' ')})` : ''}; decided by the first only ${onlyA}, by the second only ${onlyB}; wins not replayed: ${notReplayed.length}`);
  if (differ.length > 0 || notReplayed.length > 0) process.exit(1);
}

const [command, ...rest] = process.argv.slice(2);
if (command === 'solve') await solve(rest);
else if (command === 'compare') compare(rest);
else fail(USAGE);
