import type { Argv } from 'yargs';
import { PatienceError, type SolveOptions } from '../index';

/** Search limits per deal: --time-limit (seconds), --node-limit, --memory (MiB of table). */
export interface LimitArgs {
  timeLimit?: string;
  nodeLimit?: string;
  memory?: string;
}


const GROUP = 'Limits (a limit hit gives the verdict unknown):';

export function withLimitOptions<T>(yargs: Argv<T>): Argv<T & LimitArgs> {
  return yargs
    .option('time-limit', { type: 'string', describe: 'seconds (fractions allowed)', group: GROUP, requiresArg: true })
    .option('node-limit', { type: 'string', describe: 'nodes expanded', group: GROUP, requiresArg: true })
    .option('memory', { type: 'string', describe: 'MiB of transposition table and search stack per deal (default 1900, less when the machine has under 2.5 GiB per worker)', group: GROUP, requiresArg: true });
}

function positive(flag: string, text: string, whole: boolean): number {
  const t = text.trim();
  const value = Number(t);
  // Decimal, with an exponent if wanted (1e6); Number alone would also take 0x10, 0b11 and 0o7.
  const decimal = /^(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t);
  const ok = decimal && Number.isFinite(value) && value > 0 && (!whole || Number.isSafeInteger(value));
  if (!ok) throw new PatienceError(`bad --${flag} "${text}": expected ${whole ? 'a whole number' : 'a number'} above 0`);
  return value;
}

export function limitsFromArgs(args: LimitArgs): SolveOptions {
  const limits: SolveOptions = {};
  if (args.timeLimit !== undefined) limits.timeLimitMs = positive('time-limit', args.timeLimit, false) * 1000;
  if (args.nodeLimit !== undefined) limits.nodeLimit = positive('node-limit', args.nodeLimit, true);
  if (args.memory !== undefined) {
    limits.memoryMiB = positive('memory', args.memory, false);
    // Under a MiB no deal gets past its first nodes: a typo (1e-9 for 1e9), not a budget.
    if (limits.memoryMiB < 1) throw new PatienceError(`bad --memory "${args.memory}": expected MiB, at least 1`);
  }
  return limits;
}
