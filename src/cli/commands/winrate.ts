import { defaultWorkers, memoryWarning, PatienceError, PRESET_NAMES, type WinRateOptions, winRate } from '../../index';
import { defineCommand, EXIT, notTogether } from '../command';
import { print, warn } from '../io';
import { limitsFromArgs, withLimitOptions } from '../limits';
import { createProgress } from '../progress';
import { ruleOverrides, withRuleFlags } from '../rule-flags';
import { formatRunSummary, retryHint, winRateText } from '../run-summary';

const GROUP = 'Run:';

/** A whole number flag: PatienceError naming the flag otherwise. */
export function wholeFlag(flag: string, text: string, min: number): number {
  const t = text.trim();
  const value = Number(t);
  if (!/^\d+$/.test(t) || !Number.isSafeInteger(value) || value < min) throw new PatienceError(`bad --${flag} "${text}": expected a whole number from ${min} up`);
  return value;
}

/** Exit code of a run stopped by Ctrl-C or SIGTERM (128 + SIGINT), as shells expect. */
const EXIT_INTERRUPTED = 130;

export const winrateCommand = defineCommand({
  command: 'winrate [game]',
  describe: 'Estimate the win rate over many deals, in parallel, with a 95% interval; resumable, shardable',
  builder: (y) =>
    withLimitOptions(
      withRuleFlags(
        y
          .positional('game', { type: 'string', describe: `the game: ${PRESET_NAMES.join(', ')} (optional with --resume and --retry)` })
          .option('deals', { type: 'string', describe: 'number of deals (all shards together); each gets 10 s unless --time-limit or --node-limit is given', group: GROUP, requiresArg: true })
          .option('from', { type: 'string', describe: 'first deal number (default 1)', group: GROUP, requiresArg: true })
          .option('workers', { type: 'string', describe: 'worker threads (default: the number of cores; 0 or 1: the main thread); each has its own --memory table', group: GROUP, requiresArg: true })
          .option('out', { type: 'string', describe: 'write every finished deal to this new result file', group: GROUP, requiresArg: true })
          .option('resume', { type: 'string', describe: 'continue this result file where it stopped (its header gives the game, deals and limits)', group: GROUP, requiresArg: true })
          .option('retry', {
            type: 'string',
            describe: 'solve again, at higher limits (--time-limit ...), the deals this result file left undecided, writing a new file (--out) with its decided deals',
            group: GROUP,
            requiresArg: true,
          })
          .option('save-solutions', { type: 'boolean', describe: 'store each winnable deal\'s moves in the result file', group: GROUP })
          .option('shard', { type: 'string', describe: 'solve only slice K of N (K from 1), e.g. 3/8', group: GROUP, requiresArg: true })
          .option('shard-count', {
            type: 'string',
            describe: 'solve one of N slices, the slice taken from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID',
            group: GROUP,
            requiresArg: true,
          })
          .option('json', { type: 'boolean', describe: 'print one JSON object: deals, won, lost, unknown, winRate, interval, ...' })
          .option('quiet', { alias: 'q', type: 'boolean', describe: 'no progress on stderr' })
          .option('progress', { type: 'boolean', describe: 'progress lines on stderr every 5 s even when it is not a terminal (a log file)' })
          .conflicts('out', 'resume')
          .conflicts('retry', 'resume')
          .check(notTogether(['quiet', 'progress']))
          .example('$0 winrate canfield --deals 2000', 'canfield deals 1-2000 on every core')
          .example('$0 winrate canfield --deals 100000 --time-limit 10 --out cf.msgpack', 'saving results as they come')
          .example('$0 winrate --resume cf.msgpack', 'continue it after an interruption')
          .example('$0 winrate canfield --deals 10000000 --shard 3/100 --out cf-3.msgpack', 'one slice of a cluster run')
          .example('$0 winrate --retry cf.msgpack --time-limit 120 --out cf-120.msgpack', 'its undecided deals again, at 120 s'),
      ),
    ),
  run: async (args) => {
    const options: WinRateOptions = { ...limitsFromArgs(args) };
    if (args.game !== undefined) options.game = args.game;
    const overrides = ruleOverrides(args);
    if (Object.keys(overrides).length > 0) options.rules = overrides;
    if (args.deals !== undefined) options.deals = wholeFlag('deals', args.deals, 1);
    if (args.from !== undefined) options.from = wholeFlag('from', args.from, 0);
    if (args.workers !== undefined) options.workers = wholeFlag('workers', args.workers, 0);
    if (args.out !== undefined) options.out = args.out;
    if (args.resume !== undefined) options.resume = args.resume;
    if (args.retry !== undefined) options.retry = args.retry;
    if (args.saveSolutions) options.saveSolutions = true;
    if (args.shard !== undefined) options.shard = args.shard;
    if (args.shardCount !== undefined) options.shardCount = wholeFlag('shard-count', args.shardCount, 1);
    if (options.saveSolutions && options.out === undefined && options.resume === undefined && options.retry === undefined) {
      throw new PatienceError('--save-solutions keeps the winning moves in the result file: give one with --out FILE');
    }
    if (options.resume === undefined && options.retry === undefined) {
      if (options.game === undefined) throw new PatienceError(`no game given: patience winrate <game> --deals N, with <game> one of ${PRESET_NAMES.join(', ')}`);
      if (options.deals === undefined) throw new PatienceError('no number of deals given: add --deals N');
    }
    if (options.memoryMiB !== undefined) warn(memoryWarning(options.memoryMiB, options.workers ?? defaultWorkers()));

    // Ctrl-C (or SIGTERM from a batch system) stops cleanly: finished deals are kept, and the
    // summary so far is printed. A second one quits at once.
    const controller = new AbortController();
    const onSignal = (signal: NodeJS.Signals) => {
      if (controller.signal.aborted) process.exit(EXIT_INTERRUPTED);
      process.stderr.write(`\npatience: ${signal}: stopping after the deals in progress (again to quit at once)\n`);
      controller.abort();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    let progress: ReturnType<typeof createProgress> | undefined;
    try {
      const result = await winRate(options, {
        signal: controller.signal,
        onStart: ({ total, done, header }) => {
          progress = createProgress({ total, quiet: args.quiet === true, lines: args.progress === true, label: header.game });
          progress.update(done);
        },
        onProgress: (p) => progress?.update(p.done, winRateText(p)),
      });
      progress?.finish();
      warn(...result.warnings);
      if (args.json) print(JSON.stringify(result));
      else for (const line of formatRunSummary(result, result)) print(line);
      if (result.file !== undefined && !args.json) print(`  results     ${result.file}`);
      const again = args.json ? undefined : retryHint(result);
      if (again !== undefined) print(`  retry       ${again}`);
      if (result.interrupted) {
        const how = result.file !== undefined ? `continue with: patience winrate --resume ${result.file}` : 'the results were not saved (use --out to keep them)';
        process.stderr.write(`patience: interrupted with ${result.end - result.start - result.deals} deals left; ${how}\n`);
        return EXIT_INTERRUPTED;
      }
      if (result.errors > 0) {
        // Every other deal is kept and counted, but a deal the solver threw on is a bug to report.
        process.stderr.write(`patience: internal error: solving threw on ${result.errors} deal(s); the summary counts them undecided, and \`patience report FILE --csv\` shows each message\n`);
        return EXIT.internal;
      }
      return EXIT.ok;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  },
});
