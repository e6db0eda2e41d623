import type { Move } from '../rules/move';
import type { Position } from '../rules/position';
import { validatePosition } from '../rules/position';
import { DeadCheck } from './dead';
import { Engine } from './engine';
import { FULL, PRESENT, StateTable } from './table';
import type { LimitReason, SolveOptions, SolveResult } from './types';

const DEFAULT_MEMORY_MIB = 1024;
/** Limits are checked every this many nodes, not every node. */
const CHECK_EVERY = 1024;
const MAX_KEY_WORDS = 64;

interface ResolvedSolveOptions {
  nodeLimit: number;
  timeLimitMs: number;
  memoryMiB: number;
  deadCheck: boolean | 'auto';
}

function resolveOptions(base: SolveOptions, extra: SolveOptions | undefined): ResolvedSolveOptions {
  const o = { ...base, ...extra };
  return {
    nodeLimit: o.nodeLimit ?? Infinity,
    timeLimitMs: o.timeLimitMs ?? Infinity,
    memoryMiB: o.memoryMiB ?? DEFAULT_MEMORY_MIB,
    deadCheck: o.deadCheck ?? 'auto',
  };
}

/**
 * A reusable solver: depth-first search over the engine's moves with an explicit stack, and a
 * transposition table of every state entered. A Solver keeps its table and stack buffers across
 * calls, so solving many deals allocates almost nothing after the first.
 *
 * The search is a plain graph search: a state already in the table (finished, or on the current
 * path) is not entered again. Every pruning it relies on is a property of the state alone (see
 * docs/algorithms.md), never of the path that reached it, which is what makes skipping a state seen
 * before sound: if a win is reachable from the root, the search finds one; if the stack empties
 * without one, every reachable state was searched and the deal is unwinnable.
 */
export class Solver {
  private readonly defaults: SolveOptions;
  private table: StateTable;
  private readonly key = new Uint32Array(MAX_KEY_WORDS);
  // The search stack, one entry per ply: the move list lives in `moves`, from start[ply] to end[ply],
  // with cursor[ply] the next to try; made[ply] and undoInfo[ply] are the move taken from this ply.
  private moves = new Int32Array(1 << 16);
  private start = new Int32Array(1 << 10);
  private end = new Int32Array(1 << 10);
  private cursor = new Int32Array(1 << 10);
  private made = new Int32Array(1 << 10);
  private undoInfo = new Int32Array(1 << 10);

  constructor(options: SolveOptions = {}) {
    this.defaults = options;
    this.table = new StateTable(resolveOptions(options, undefined).memoryMiB * 1024 * 1024);
  }

  solve(position: Position, options?: SolveOptions): SolveResult {
    validatePosition(position);
    const o = resolveOptions(this.defaults, options);
    const started = performance.now();
    const deadline = started + o.timeLimitMs;
    const table = this.table;
    // The table gets 80% of the budget and the stack the rest (a search can run millions of plies deep).
    const budgetBytes = o.memoryMiB * 1024 * 1024;
    table.maxBytes = budgetBytes * 0.8;
    table.clear();
    this.shrinkStack();
    const engine = new Engine(position);
    const dead = new DeadCheck(engine, o.deadCheck === 'auto' ? DeadCheck.pays(engine) : o.deadCheck);
    const key = this.key;

    let nodes = 0;
    let maxDepth = 0;
    const finish = (verdict: SolveResult['verdict'], reason?: LimitReason, moves?: Move[]): SolveResult => {
      const result: SolveResult = {
        verdict,
        nodes,
        uniqueStates: table.count,
        elapsedMs: performance.now() - started,
        maxDepth,
      };
      if (moves) result.moves = moves;
      if (reason) result.reason = reason;
      if (dead.enabled) {
        result.deadChecked = dead.checked;
        result.deadStates = dead.dead;
        result.deadByCount = dead.deadByCount;
      }
      return result;
    };

    if (engine.isWon()) return finish('winnable', undefined, []);
    if (dead.isDead()) return finish('unwinnable');
    table.insert(key, engine.encode(key));
    let depth = 0;
    this.start[0] = 0;
    this.cursor[0] = 0;
    this.end[0] = this.generateAt(engine, 0);

    while (depth >= 0) {
      if (this.cursor[depth] === this.end[depth]) {
        depth--;
        if (depth >= 0) engine.undo(this.made[depth]!, this.undoInfo[depth]!);
        continue;
      }
      const m = this.moves[this.cursor[depth]++]!;
      const info = engine.make(m);
      nodes++;
      if ((nodes & (CHECK_EVERY - 1)) === 0) {
        if (nodes >= o.nodeLimit) return finish('unknown', 'nodes');
        if (performance.now() > deadline) return finish('unknown', 'time');
      }
      if (engine.isWon()) {
        this.made[depth] = m;
        this.undoInfo[depth] = info;
        return finish('winnable', undefined, this.solution(position, depth + 1));
      }
      const status = table.insert(key, engine.encode(key));
      if (status === PRESENT) {
        engine.undo(m, info);
        continue;
      }
      if (status === FULL) return finish('unknown', 'memory');
      // A state proved dead stays in the table (it is dead whichever way it is reached again).
      if (dead.isDead()) {
        engine.undo(m, info);
        continue;
      }
      this.made[depth] = m;
      this.undoInfo[depth] = info;
      depth++;
      if (depth > maxDepth) maxDepth = depth;
      if (depth + 1 >= this.start.length) {
        this.ensurePly(depth);
        if (this.stackBytes() > budgetBytes * 0.2) return finish('unknown', 'memory');
      }
      this.start[depth] = this.end[depth - 1]!;
      this.cursor[depth] = this.start[depth]!;
      this.end[depth] = this.generateAt(engine, this.start[depth]!);
    }
    return finish('unwinnable');
  }

  /** Bytes held by the search stack; it counts against the memory budget with the table. */
  private stackBytes(): number {
    return this.moves.byteLength + 5 * this.start.byteLength;
  }

  /** Generates the moves of the engine's state into the move stack from `at`, growing it as needed. */
  private generateAt(engine: Engine, at: number): number {
    // A state has at most a few hundred moves; keep that much headroom. The stack's size is
    // checked against the budget where the ply arrays grow, which happens at least as often.
    if (at + 4096 > this.moves.length) {
      const grown = new Int32Array(this.moves.length * 2);
      grown.set(this.moves);
      this.moves = grown;
    }
    return engine.generate(this.moves, at);
  }

  /** After a deep search, give the big stack back rather than keep it for every later deal. */
  private shrinkStack(): void {
    if (this.moves.length > 1 << 20) this.moves = new Int32Array(1 << 16);
    if (this.start.length > 1 << 16) {
      this.start = new Int32Array(1 << 10);
      this.end = new Int32Array(1 << 10);
      this.cursor = new Int32Array(1 << 10);
      this.made = new Int32Array(1 << 10);
      this.undoInfo = new Int32Array(1 << 10);
    }
  }

  private ensurePly(ply: number): void {
    if (ply + 1 < this.start.length) return;
    const grow = (a: Int32Array) => {
      const b = new Int32Array(a.length * 2);
      b.set(a);
      return b;
    };
    this.start = grow(this.start);
    this.end = grow(this.end);
    this.cursor = grow(this.cursor);
    this.made = grow(this.made);
    this.undoInfo = grow(this.undoInfo);
  }

  /** Replays the path from the root in a fresh engine, turning each internal move into public moves. */
  private solution(position: Position, plies: number): Move[] {
    const engine = new Engine(position);
    const out: Move[] = [];
    for (let ply = 0; ply < plies; ply++) {
      const m = this.made[ply]!;
      const described = engine.describe(m);
      const info = engine.make(m);
      const last = described[described.length - 1]!;
      if (info & (1 << 30) && last.kind === 'move' && last.from.area === 'tableau') {
        const pile = last.from.index;
        last.autoFill = { card: engine.top(pile), pile };
      }
      out.push(...described);
    }
    return out;
  }
}

/** Solves one position with a fresh solver. For many deals, reuse a `Solver`. */
export function solve(position: Position, options?: SolveOptions): SolveResult {
  return new Solver(options).solve(position);
}
