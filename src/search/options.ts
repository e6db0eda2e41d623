import { fail, shown } from '../errors';
import type { SolveOptions, SolveProgress } from './types';

/** The transposition table's memory when no `memoryMiB` is given. */
const DEFAULT_MEMORY_MIB = 1024;

/** Solve options with every default filled in (`resolveOptions`). */
export interface ResolvedSolveOptions {
  restartNodes: number | undefined;
  nodeLimit: number;
  timeLimitMs: number;
  memoryMiB: number;
  deadCheck: boolean | 'auto';
  drawOneProof: boolean | 'auto';
  stricterGame: boolean | 'auto';
  onProgress: ((progress: SolveProgress) => void) | undefined;
}

/** A limit given as a number above 0 (Infinity: none), else a PatienceError naming the option. */
function checkLimit(name: string, v: unknown, whole: boolean): void {
  if (v === undefined) return;
  if (typeof v !== 'number' || !(v > 0) || (whole && v !== Infinity && !Number.isSafeInteger(v))) {
    fail(`bad ${name} ${shown(v)}: expected ${whole ? 'a whole number from 1 to 2^53-1' : 'a number above 0'}, or Infinity for none`);
  }
}

/** A switch given as true, false or 'auto', else a PatienceError naming the option. */
function checkSwitch(name: string, v: unknown): void {
  if (v !== undefined && v !== true && v !== false && v !== 'auto') fail(`bad ${name} ${shown(v)}: expected true, false or 'auto'`);
}

/** Checks solve options as a search would, before any is run (a pool's limits): a PatienceError naming what is wrong. */
export function checkSolveOptions(options: SolveOptions): void {
  resolveOptions(options, undefined);
}

const SOLVE_OPTIONS = new Set(['nodeLimit', 'timeLimitMs', 'restartNodes', 'memoryMiB', 'deadCheck', 'drawOneProof', 'stricterGame', 'onProgress']);

/**
 * The options of a solve (`extra` over the solver's `base`) filled in, each checked first: a library
 * caller's mistake is a one-line PatienceError.
 */
export function resolveOptions(base: SolveOptions, extra: SolveOptions | undefined): ResolvedSolveOptions {
  for (const given of [base, extra]) {
    if (given === undefined) continue;
    if (typeof given !== 'object' || given === null || Array.isArray(given)) fail(`bad solve options ${shown(given)}: expected an object such as { timeLimitMs: 10000 }`);
    // A misspelt limit (nodeLimt) would otherwise run with no limit at all.
    for (const key of Object.keys(given)) if (!SOLVE_OPTIONS.has(key)) fail(`unknown solve option "${key}": expected one of ${[...SOLVE_OPTIONS].join(', ')}`);
  }
  const o = { ...base, ...extra };
  checkLimit('nodeLimit', o.nodeLimit, true);
  checkLimit('timeLimitMs', o.timeLimitMs, false);
  checkLimit('restartNodes', o.restartNodes, true);
  if (o.memoryMiB !== undefined && (typeof o.memoryMiB !== 'number' || !(o.memoryMiB > 0) || !Number.isFinite(o.memoryMiB))) {
    fail(`bad memoryMiB ${shown(o.memoryMiB)}: expected a finite number of MiB above 0 (the CLI's default: defaultMemoryMiB(1))`);
  }
  checkSwitch('deadCheck', o.deadCheck);
  checkSwitch('drawOneProof', o.drawOneProof);
  checkSwitch('stricterGame', o.stricterGame);
  if (o.onProgress !== undefined && typeof o.onProgress !== 'function') fail('bad onProgress: expected a function');
  return {
    restartNodes: o.restartNodes,
    nodeLimit: o.nodeLimit ?? Infinity,
    timeLimitMs: o.timeLimitMs ?? Infinity,
    memoryMiB: o.memoryMiB ?? DEFAULT_MEMORY_MIB,
    deadCheck: o.deadCheck ?? 'auto',
    drawOneProof: o.drawOneProof ?? 'auto',
    stricterGame: o.stricterGame ?? 'auto',
    onProgress: o.onProgress,
  };
}
