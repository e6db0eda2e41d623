#!/usr/bin/env node
// Solvitaire's whole-pile Canfield (its preset canfield-strict) is our `canfield --no-wrap` but for one
// rule: while a space is open (so the reserve is empty) it moves no whole pile onto another
// (docs/rules.md, "canfield (Hoyle)"). This measures what that rule takes away. For each deal a
// `canfield --no-wrap` result file won, it solves the deal again; where the solution moves a pile
// while a space is open, it searches from the position just before that move, over the referee's
// moves less those, for a win (depth-first, every position once). A win found so, after the
// solution's moves up to there, is a win under Solvitaire's rule: every move is checked by the
// referee. A deal not won so may still be won by another line from the start.
//
//   node bench/solvitaire-space-rule.mjs results/canfield-nowrap-1-20000-60s.msgpack [--shard K/N]
//     [--time-limit S (each deal solved again; default 10)] [--positions N (each search from the
//     position before the move; default 200,000)] [--deals N,N,... (only these of its wins)]
import { applyMove, clonePosition, dealFromSeed, isWon, legalMoves, Solver } from '../dist/index.js';
import { commandLine, dealsWhere, failer, openResults, shardOf, WON } from './result-deals.mjs';

const fail = failer('solvitaire-space-rule');
const { file, option } = commandLine(process.argv.slice(2), ['--shard', '--time-limit', '--positions', '--deals'], fail);
const shard = option('--shard', '1/1');
const timeLimitMs = Number(option('--time-limit', '10')) * 1000;
const LIMIT = Number(option('--positions', '200000'));
if (!file || !(timeLimitMs > 0) || !(LIMIT > 0)) {
  fail('usage: node bench/solvitaire-space-rule.mjs FILE.msgpack [--shard K/N] [--time-limit S] [--positions N] [--deals N,N,...]');
}
const { set, rules } = openResults(file, fail);
if (set.header.game !== 'canfield' || rules.wrap !== false || rules.move !== 'whole-pile') fail(`${file} is not a canfield --no-wrap file`);
const wins = [...dealsWhere(set, (code) => code === WON).keys()];
// --deals: only these of the file's wins (e.g. the ones a first pass did not win again in time).
const only = option('--deals', '');
const listed = only === '' ? null : only.split(',').map(Number);
for (const d of listed ?? []) if (!wins.includes(d)) fail(`--deals: ${d} is not a deal ${file} won`);
const mine = shardOf(listed ?? wins, shard, fail);
// A position's key: the piles in any order (their order changes nothing), and the rest as it is.
const key = (p) => JSON.stringify([p.tableau.map((t) => t.join(',')).sort(), p.foundations, p.reserve, p.stock, p.waste]);
// Solvitaire's rule: no pile onto another while a pile is empty.
const allowed = (p, m) =>
  !(m.kind === 'move' && m.from.area === 'tableau' && m.to.area === 'tableau' && p.tableau.some((t) => t.length === 0));

/** 'won', 'lost' (every position reached without a win) or 'limit'. */
function search(start) {
  const seen = new Set([key(start)]);
  const stack = [start];
  let nodes = 0;
  while (stack.length > 0) {
    const p = stack.pop();
    if (isWon(p)) return 'won';
    if (++nodes > LIMIT) return 'limit';
    const moves = legalMoves(p).filter((m) => allowed(p, m));
    // Foundation moves pushed last, so tried first.
    const home = (m) => (m.kind === 'move' && m.to.area === 'foundation' ? 1 : 0);
    moves.sort((a, b) => home(a) - home(b));
    for (const m of moves) {
      const q = applyMove(p, m);
      const kq = key(q);
      if (!seen.has(kq)) {
        seen.add(kq);
        stack.push(q);
      }
    }
  }
  return 'lost';
}

const solver = new Solver();
const c = { clean: 0, flagged: 0, flaggedWon: 0, flaggedLimit: 0, flaggedLost: 0, notWonNow: 0 };
const open = [];
const notWon = [];
for (const deal of mine) {
  const start = dealFromSeed(rules, deal);
  const r = solver.solve(start, { timeLimitMs });
  if (r.verdict !== 'winnable') {
    c.notWonNow++;
    notWon.push(deal);
    continue;
  }
  // Play the solution up to its first pile move while a space is open.
  let pos = clonePosition(start);
  let flagged = false;
  for (const m of r.moves) {
    if (!allowed(pos, m)) {
      flagged = true;
      break;
    }
    pos = applyMove(pos, m);
  }
  if (!flagged) {
    c.clean++;
    continue;
  }
  c.flagged++;
  const v = search(pos);
  if (v === 'won') c.flaggedWon++;
  else {
    if (v === 'limit') c.flaggedLimit++;
    else c.flaggedLost++;
    open.push(`${deal}:${v}`);
  }
}
console.log(
  `${file} shard ${shard}: ${mine.length} wins; solution never moves a pile while a space is open ${c.clean}; ` +
    `does ${c.flagged}, of which won without such moves from there ${c.flaggedWon}, not found within ${LIMIT} positions ` +
    `${c.flaggedLimit}, lost ${c.flaggedLost} (${open.join(' ')}); not won at ${timeLimitMs / 1000} s now ${c.notWonNow} (${notWon.join(' ')})`,
);
