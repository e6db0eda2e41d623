import yargs, { type Argv } from 'yargs';
import { PatienceError } from '../index';
import pkg from '../../package.json';
import { EXIT } from './command';
import { COMMANDS } from './commands/index';

/** A mistake in the command line itself (unknown flag, missing value): exit 2 like any bad input. */
class UsageError extends Error {}

/** MAX_MESSAGE characters of a message are shown: a 100 KB argument echoed back helps no one. */
const MAX_MESSAGE = 500;

/** A message on one line: line breaks joined, other control characters (an ANSI escape) shown as \xNN, cut short. */
const oneLine = (text: string): string => {
  const line = text
    .replace(/\s*\n\s*/g, '; ')
    .trim()
    .replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE)}...` : line;
};

/**
 * Runs the CLI on `argv` (without node and script) and sets process.exitCode. Never throws: user
 * errors print one line `patience: <message>` on stderr and exit 2; anything else is a bug and says so
 * in one line (PATIENCE_DEBUG=1 adds the stack).
 */
export async function main(argv: string[]): Promise<void> {
  // `patience solve ... | head` closes stdout early; that is not an error worth a stack trace. Any
  // other failed write (a full disk: `> /dev/full`) is said in one line, exit 2 as for a file that
  // cannot be read: the answer never reached the user, so no verdict's exit code may claim it did.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    process.stderr.write(`patience: cannot write the output: ${oneLine(e.message)}\n`);
    process.exit(EXIT.usage);
  });
  let exitCode: number = EXIT.ok;
  try {
    const first = argv[0];
    if (first !== undefined && !first.startsWith('-') && !COMMANDS.some((c) => c.name === first)) {
      throw new UsageError(`unknown command "${first}": expected one of ${COMMANDS.map((c) => c.name).join(', ')}`);
    }
    // Every flag is read as text and checked by the library, so yargs's [string] labels would only mislead.
    let parser = (yargs(argv) as Argv & { usageConfiguration(config: { 'hide-types': boolean }): Argv })
      .usageConfiguration({ 'hide-types': true })
      .scriptName('patience')
      .locale('en')
      .usage('$0 <command> [options]\n\nSolves patience games exactly: Canister, Storehouse, Canfield.')
      .strict()
      .exitProcess(false)
      // A flag given twice (--seed 1 --seed 2) is as contradictory as --seed with --deck. Variadic
      // positionals (`report <files..>`) are arrays by design.
      .check((args, options: FlagNames) => {
        const twice = Object.keys(args).find((key) => key !== '_' && key !== 'files' && key.length > 1 && Array.isArray(args[key]));
        if (twice !== undefined) throw new UsageError(`--${twice} is given more than once`);
        checkSwitches(argv, options);
        // Words after `--` are not read by any command: refused, not ignored.
        const extra = args._.slice(1);
        if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(String(extra[0]))}`);
        return true;
      }, true)
      .fail((message, error) => {
        // yargs calls `--no-wrap=true` an unknown argument, before the check above sees it.
        if (error === undefined && message.startsWith('Unknown argument')) checkSwitches(argv, (parser as Argv & { getOptions(): FlagNames }).getOptions());
        throw error ?? new UsageError(message);
      })
      .demandCommand(1, 'give a command: ' + COMMANDS.map((c) => c.name).join(', '))
      .help()
      .alias('help', 'h')
      .version(pkg.version)
      .epilogue('Exit codes: 0 ok/winnable/won, 1 unwinnable/not won, 2 bad input, 3 unknown (limit hit). See docs/cli.md.')
      .wrap(Math.min(110, process.stdout.columns ?? 100));
    for (const c of COMMANDS) {
      parser = parser.command(c.command, c.describe, c.builder, async (args) => {
        exitCode = await c.run(args);
      });
    }
    await parser.parseAsync();
  } catch (e) {
    exitCode = report(e);
  }
  process.exitCode = exitCode;
}

/** The option names yargs reports to a check: on/off flags, value flags, and short aliases. */
interface FlagNames {
  boolean?: string[];
  string?: string[];
  alias?: Record<string, string[]>;
}

/**
 * Flags as yargs leaves them unchecked: `--bases-out=1` (or `--basesOut=1`) would quietly turn the
 * option off, `--wrap --no-wrap` keep the last, `-vv` count twice, `--no-seed` hand the command
 * `false` for a value, and `--no-wrap=true` come back as an unknown argument. Each is refused, as a
 * value flag given twice is.
 */
function checkSwitches(argv: readonly string[], names: FlagNames): void {
  const switches = new Set(names.boolean ?? []);
  const values = new Set(names.string ?? []);
  const long = new Map<string, string>(); // short alias -> its long name
  for (const [name, aliases] of Object.entries(names.alias ?? {})) for (const a of aliases) if (a.length === 1) long.set(a, name);
  const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const seen = new Map<string, string>();
  const note = (name: string, form: string) => {
    const before = seen.get(name);
    if (before !== undefined) {
      const contradict = before.startsWith('--no-') !== form.startsWith('--no-');
      throw new UsageError(contradict ? `${before} and ${form} contradict each other` : before === form ? `${form} is given more than once` : `${form} is given more than once (as ${before} and ${form})`);
    }
    seen.set(name, form);
  };
  for (const token of argv) {
    if (token === '--') break;
    const short = /^-([a-zA-Z]+)(=.*)?$/.exec(token);
    if (short !== null) {
      for (const letter of short[1]!) {
        const name = long.get(letter);
        if (name === undefined || !switches.has(name)) continue;
        if (short[2] !== undefined) throw new UsageError(`-${letter} is on or off and takes no value (not "${short[2]}")`);
        note(name, `-${letter}`);
      }
      continue;
    }
    const m = /^--(no-)?([^=]+)(=(.*))?$/.exec(token);
    if (m === null) continue;
    const negated = m[1] !== undefined;
    const bare = kebab(m[2]!);
    const form = `--${m[1] ?? ''}${m[2]}`;
    if (negated && !switches.has(`no-${bare}`) && (values.has(bare) || values.has(m[2]!))) {
      throw new UsageError(`--${bare} takes a value and has no --no- form (leave it out instead)`);
    }
    const name = switches.has(bare) ? bare : negated && switches.has(`no-${bare}`) ? `no-${bare}` : undefined;
    if (name === undefined) continue;
    const value = m[4];
    if (value !== undefined && negated && name === bare) {
      throw new UsageError(`${form} takes no value (not "=${value}"): give ${form} alone, or --${m[2]}=true or --${m[2]}=false`);
    }
    if (value !== undefined && value !== 'true' && value !== 'false') throw new UsageError(`${form} is on or off and takes no value (not "=${value}")`);
    note(name, form);
  }
}

function report(e: unknown): number {
  if (e instanceof PatienceError) {
    process.stderr.write(`patience: ${oneLine(e.message)}\n`);
    return EXIT.usage;
  }
  // yargs throws YError itself for some usage mistakes (a flag missing its value).
  if (e instanceof UsageError || (e instanceof Error && e.name === 'YError')) {
    process.stderr.write(`patience: ${oneLine(e.message)} (see patience --help)\n`);
    return EXIT.usage;
  }
  const message = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  process.stderr.write(
    `patience: internal error: ${oneLine(message)} (a bug in patience-solver ${pkg.version}; please report it with the command you ran; PATIENCE_DEBUG=1 shows the stack)\n`,
  );
  if (process.env.PATIENCE_DEBUG && e instanceof Error && e.stack) process.stderr.write(e.stack + '\n');
  return EXIT.internal;
}
