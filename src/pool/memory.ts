/**
 * The table memory a deal gets when the user names none (`--memory`): as much as the hardest deals
 * of the bench's lists need to be decided within 120 s, when the machine has it for every worker.
 *
 * Hoyle Canfield deals 52, 377 and 793 are decided in 75-115 s with 1,900 MiB of table and peak at
 * 1.65-1.93 GiB resident, Node included; with 1,024 MiB they run out of memory
 * (docs/results-history.md, "The 120 s condition with v12"). So the default is 1,900 MiB per worker, under 2 GiB, but never more than three
 * quarters of the machine's memory shared among the workers: a many-core laptop with little memory
 * gets less per worker rather than swapping when several hard deals meet. A table only grows as its
 * deal needs it, so easy deals use a few MiB whatever the budget.
 */
import { totalmem } from 'node:os';
import { fail, shown } from '../errors';

/** The most a worker gets by default (MiB): under 2 GiB resident with Node's own memory. */
export const MAX_DEFAULT_MEMORY_MIB = 1900;
/** The least a worker gets by default (MiB), however small the machine. */
export const MIN_DEFAULT_MEMORY_MIB = 64;
/** The share of the machine's memory the workers' tables may take together by default. */
const MACHINE_SHARE = 0.75;

/** The default table budget (MiB) of each of `workers` workers (0 or 1, the default: the main thread alone). */
export function defaultMemoryMiB(workers = 1, machineBytes: number = totalmem()): number {
  if (typeof workers !== 'number' || !(workers >= 0) || !Number.isFinite(workers)) fail(`bad worker count ${shown(workers)}: expected a number of workers, 0 or more`);
  const share = (machineBytes / 2 ** 20) * MACHINE_SHARE / Math.max(1, Math.floor(workers));
  return Math.max(MIN_DEFAULT_MEMORY_MIB, Math.min(MAX_DEFAULT_MEMORY_MIB, Math.floor(share)));
}

/**
 * A warning when `tables` tables of `memoryMiB` each (one per worker) could take more than the
 * machine's memory in all, else undefined: a hard deal would then be killed by the system rather
 * than stopped as unknown by its budget. The default never does this; a `--memory` given by hand may.
 */
export function memoryWarning(memoryMiB: number, tables: number, machineBytes: number = totalmem()): string | undefined {
  if (typeof memoryMiB !== 'number' || !(memoryMiB > 0)) fail(`memoryWarning: bad memoryMiB ${shown(memoryMiB)}: expected a number of MiB above 0`);
  if (typeof tables !== 'number' || !(tables >= 0) || !Number.isFinite(tables)) fail(`memoryWarning: bad table count ${shown(tables)}: expected a number of tables, 0 or more`);
  if (typeof machineBytes !== 'number' || !(machineBytes > 0)) fail(`memoryWarning: bad machineBytes ${shown(machineBytes)}: expected the machine's memory in bytes`);
  const n = Math.max(1, Math.floor(tables));
  const allBytes = memoryMiB * n * 2 ** 20;
  if (allBytes <= machineBytes) return undefined;
  const gib = (bytes: number) => `${(bytes / 2 ** 30).toFixed(1)} GiB`;
  const each = n === 1 ? `--memory ${memoryMiB} MiB` : `--memory ${memoryMiB} MiB for each of ${n} workers (${gib(allBytes)} in all)`;
  return `${each} is more than this machine's ${gib(machineBytes)}: a hard deal may be killed by the system for want of memory instead of stopping as unknown`;
}
