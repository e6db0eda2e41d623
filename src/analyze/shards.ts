import { fail } from '../errors';
import { isObject, isWhole, shown } from './check';

/**
 * Shards split one run's deal range into `count` disjoint contiguous slices, so that separate
 * machines (a Kubernetes Indexed Job, a Slurm job array, GNU parallel) each solve one slice and
 * `mergeResults` joins the files. `index` is 1-based, as people count: `--shard 1/4` .. `--shard 4/4`.
 */
export interface Shard {
  /** 1 .. count. */
  index: number;
  count: number;
}

/** Deals `start` .. `end - 1`. */
export interface DealSlice {
  start: number;
  end: number;
}

/** At most this many deals in one run (a bitmap of the range marks the deals done). */
export const MAX_RUN_DEALS = 2 ** 32 - 1;

/** Parses `K/N` (1 <= K <= N). */
export function parseShard(text: string): Shard {
  const m = typeof text === 'string' ? /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text) : null;
  if (!m) fail(`bad --shard ${shown(text)}: expected K/N, the K-th of N slices, counting from 1 (e.g. 1/4 .. 4/4)`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  return checkShard({ index, count }, `--shard ${text.trim()}`);
}

export function checkShard(shard: Shard, what = 'shard'): Shard {
  const { index, count } = shard;
  if (!Number.isSafeInteger(count) || count < 1) fail(`bad ${what}: the number of shards must be a whole number from 1 up`);
  if (!Number.isSafeInteger(index) || index < 1 || index > count) {
    fail(`bad ${what}: the shard number must be from 1 to ${count} (shards count from 1${index === 0 ? '; 0 is not a shard' : ''})`);
  }
  return { index, count };
}

/**
 * The shard of this process, for `--shard-count N` without `--shard`: from the batch system's
 * environment. Both are turned into a 0-based position first:
 *   - `JOB_COMPLETION_INDEX` (Kubernetes Indexed Job): 0 .. completions-1, so position = the value.
 *   - `SLURM_ARRAY_TASK_ID` (Slurm job array): whatever `--array` says (0-9 or 1-10 are both common),
 *     so position = SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN; an array with a step (0-99:2) is refused.
 *   - `PATIENCE_SHARD_INDEX`: a 0-based position set by hand (for other schedulers).
 * The shard is then position + 1 of count.
 */
export function shardFromEnv(count: number, env: Record<string, string | undefined> = process.env): Shard {
  if (!Number.isSafeInteger(count) || count < 1) fail(`bad --shard-count ${shown(count)}: expected a whole number from 1 up`);
  if (typeof env !== 'object' || env === null) fail(`shardFromEnv: bad env ${shown(env)}: expected an object of environment variables, such as process.env`);
  const whole = (name: string): number => {
    const text = env[name]!;
    if (typeof text !== 'string' || !/^\s*\d+\s*$/.test(text)) fail(`bad ${name} ${shown(text)} in the environment: expected a whole number`);
    return Number(text);
  };
  let position: number;
  let source: string;
  if (env.JOB_COMPLETION_INDEX !== undefined && env.JOB_COMPLETION_INDEX !== '') {
    position = whole('JOB_COMPLETION_INDEX');
    source = `JOB_COMPLETION_INDEX=${position} (0-based)`;
  } else if (env.SLURM_ARRAY_TASK_ID !== undefined && env.SLURM_ARRAY_TASK_ID !== '') {
    const id = whole('SLURM_ARRAY_TASK_ID');
    const min = env.SLURM_ARRAY_TASK_MIN ? whole('SLURM_ARRAY_TASK_MIN') : 0;
    const step = env.SLURM_ARRAY_TASK_STEP ? whole('SLURM_ARRAY_TASK_STEP') : 1;
    if (step !== 1) fail(`the Slurm array has step ${step}: use a plain range such as --array=1-${count} with --shard-count ${count}`);
    position = id - min;
    source = `SLURM_ARRAY_TASK_ID=${id} - SLURM_ARRAY_TASK_MIN=${min}`;
  } else if (env.PATIENCE_SHARD_INDEX !== undefined && env.PATIENCE_SHARD_INDEX !== '') {
    position = whole('PATIENCE_SHARD_INDEX');
    source = `PATIENCE_SHARD_INDEX=${position} (0-based)`;
  } else {
    fail(
      `--shard-count ${count} takes the shard from the environment, but none of JOB_COMPLETION_INDEX (Kubernetes Indexed Job), ` +
        'SLURM_ARRAY_TASK_ID (Slurm job array) or PATIENCE_SHARD_INDEX is set: give --shard K/N instead',
    );
  }
  if (position < 0 || position >= count) fail(`${source} gives shard position ${position}, outside 0..${count - 1} for --shard-count ${count}`);
  return { index: position + 1, count };
}

/**
 * The deals of shard `index` of `count` over deals from .. from+deals-1: contiguous slices whose
 * sizes differ by at most one, the larger ones first.
 */
export function shardSlice(from: number, deals: number, shard: Shard | null | undefined): DealSlice {
  if (!isWhole(from)) fail(`shardSlice: bad from ${shown(from)}: expected a whole deal number, 0 or more`);
  if (!isWhole(deals)) fail(`shardSlice: bad deals ${shown(deals)}: expected a whole number, 0 or more`);
  if (deals > 0 && deals - 1 > Number.MAX_SAFE_INTEGER - from) fail(`shardSlice: ${deals} deals from ${from} go past the last deal number 2^53-1`);
  if (shard === null || shard === undefined) return { start: from, end: from + deals };
  if (!isObject(shard)) fail(`shardSlice: bad shard ${shown(shard)}: expected { index, count } or null`);
  const { index, count } = checkShard(shard, `shard ${shown(shard.index)}/${shown(shard.count)}`);
  const base = Math.floor(deals / count);
  const extra = deals % count;
  const k = index - 1;
  const start = from + k * base + Math.min(k, extra);
  return { start, end: start + base + (k < extra ? 1 : 0) };
}

/** `12`, `12-40` (inclusive), for messages. */
export function formatDealRange(start: number, end: number): string {
  return end - start === 1 ? `${start}` : `${start}-${end - 1}`;
}
