// The whole state graph of one lost deal, to see where its states lie before building a rule
// against them (docs/algorithms.md, "Measured and not kept (session 29)"). It walks every state the
// engine's moves reach (no dominance between talon ranks, no proofs, no restarts: each key and talon
// rank is one state), keeping every move, then reports:
//   - how many states there are, and how many differ only in the talon split, or in what is buried
//     in the piles (the same foundations, reserve, and each pile's bottom card, top card and length);
//   - the states from which the reserve can never move again ("stuck"), by reserve count: a rule
//     that proved such a state lost at once could save at most those; and how many of them the
//     dead-state check (rule 6) already proves.
// It reads the engine's internals, so it runs from the sources, bundled by esbuild:
//
//   npx esbuild bench/state-graph.ts --bundle --platform=node --format=esm --outfile=/tmp/state-graph.mjs
//   node --max-old-space-size=16000 /tmp/state-graph.mjs canfield 869
//
// Memory grows with the graph: Hoyle Canfield deal 635 (8.9 M states, 25.7 M moves) ran in the
// 16,000 MB heap above, in 5 minutes.

import { dealFromSeed } from '../src/rules/deal';
import { presetRules } from '../src/rules/rules';
import { DeadCheck } from '../src/search/dead';
import { Engine } from '../src/search/engine';

const [game = 'canfield', seedText = '869'] = process.argv.slice(2);
const engine = new Engine(dealFromSeed(presetRules(game), Number(seedText)));
const key = new Uint32Array(64);
const dead = new DeadCheck(engine);
const deadOf: boolean[] = [];

const ids = new Map<string, number>();
const reserveOf: number[] = [];
const projections = { 'without the split': new Set<string>(), 'only pile bottoms, tops and lengths': new Set<string>(), 'foundations and reserve': new Set<string>() };

function project(): void {
  const progress = `${engine.found.join(',')}/${engine.resCount}`;
  const piles: string[] = [];
  const ends: string[] = [];
  for (let p = 0; p < engine.piles; p++) {
    const n = engine.len[p]!;
    const cards = Array.from(engine.pile.subarray(p * engine.maxHeight, p * engine.maxHeight + n));
    piles.push(cards.join('.'));
    ends.push(n > 0 ? `${cards[0]}-${cards[n - 1]}x${n}` : '-');
  }
  projections['without the split'].add(progress + piles.sort().join('|'));
  projections['only pile bottoms, tops and lengths'].add(progress + ends.sort().join('|'));
  projections['foundations and reserve'].add(progress);
}

/** The id of the engine's state, and whether it is new. */
function stateId(): [number, boolean] {
  const rank = engine.passRank();
  const words = engine.encode(key, rank);
  const text = `${rank}:${Array.from(key.subarray(0, words)).join(',')}`;
  const known = ids.get(text);
  if (known !== undefined) return [known, false];
  ids.set(text, ids.size);
  reserveOf.push(engine.resCount);
  deadOf.push(dead.isDead());
  project();
  return [ids.size - 1, true];
}

const from: number[] = [];
const to: number[] = [];
const reserveMoves: number[] = [];
function addEdge(a: number, b: number, movesReserve: boolean): void {
  from.push(a);
  to.push(b);
  if (movesReserve) reserveMoves.push(a);
}

// Depth-first over every state, an explicit stack of move lists in one buffer.
const moves = new Int32Array(1 << 22);
const stack: { id: number; cursor: number; end: number; made: number; info: number }[] = [];
const started = Date.now();
stack.push({ id: stateId()[0], cursor: 0, end: engine.generate(moves, 0), made: 0, info: 0 });
let won = false;
while (stack.length > 0) {
  const top = stack[stack.length - 1]!;
  if (top.cursor === top.end) {
    stack.pop();
    if (stack.length > 0) engine.undo(top.made, top.info);
    continue;
  }
  const m = moves[top.cursor++]!;
  const reserveBefore = engine.resCount;
  const info = engine.make(m);
  if (engine.isWon()) {
    won = true;
    break;
  }
  const [child, fresh] = stateId();
  addEdge(top.id, child, engine.resCount !== reserveBefore);
  if (!fresh) {
    engine.undo(m, info);
    continue;
  }
  stack.push({ id: child, cursor: top.end, end: engine.generate(moves, top.end), made: m, info });
}
const states = ids.size;
const edges = from.length;
console.log(`${game} deal ${seedText}: ${won ? 'won' : 'lost'}, ${states} states, ${edges} moves, ${((Date.now() - started) / 1000).toFixed(1)} s`);
if (won) process.exit(0);
const withoutSplit = projections['without the split'].size;
for (const [name, set] of Object.entries(projections)) {
  console.log(`  ${name}: ${set.size}${set.size === withoutSplit ? '' : ` (${(withoutSplit / set.size).toFixed(1)} states without the split each)`}`);
}

// A state can move the reserve if one of its moves does, or a move leads to a state that can.
const start = new Int32Array(states + 1);
for (let i = 0; i < edges; i++) start[to[i]! + 1]!++;
for (let s = 0; s < states; s++) start[s + 1]! += start[s]!;
const parents = new Int32Array(edges);
const fill = start.slice(0, states);
for (let i = 0; i < edges; i++) parents[fill[to[i]!]!++] = from[i]!;
const canMove = new Uint8Array(states);
const queue: number[] = [];
for (const s of reserveMoves) {
  if (canMove[s] === 0) {
    canMove[s] = 1;
    queue.push(s);
  }
}
while (queue.length > 0) {
  const s = queue.pop()!;
  for (let j = start[s]!; j < start[s + 1]!; j++) {
    const p = parents[j]!;
    if (canMove[p] === 0) {
      canMove[p] = 1;
      queue.push(p);
    }
  }
}
const byReserve = new Map<number, { states: number; stuck: number }>();
let stuck = 0;
let stuckDead = 0;
let deadStates = 0;
for (let s = 0; s < states; s++) {
  if (deadOf[s]) deadStates++;
  const r = reserveOf[s]!;
  const row = byReserve.get(r) ?? { states: 0, stuck: 0 };
  row.states++;
  if (r > 0 && canMove[s] === 0) {
    row.stuck++;
    stuck++;
    if (deadOf[s]) stuckDead++;
  }
  byReserve.set(r, row);
}
console.log(`  reserve stuck for good: ${stuck} states (${((100 * stuck) / states).toFixed(1)}%), ${stuckDead} of them dead by rule 6's check (${deadStates} dead in all)`);
console.log(
  `  by reserve count (states/stuck): ${[...byReserve.entries()]
    .sort((a, b) => b[0] - a[0])
    .map(([r, row]) => `${r}: ${row.states}/${row.stuck}`)
    .join(', ')}`,
);
