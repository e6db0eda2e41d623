import { PatienceError } from '../index';
import type { ArgumentsCamelCase, Argv } from 'yargs';

/**
 * Exit codes shared by every command (docs/cli.md lists them). A command returns one; main() sets it
 * as the process's exit code once all output is written.
 */
export const EXIT = {
  /** Done; winnable; won. */
  ok: 0,
  /** A negative answer: unwinnable, or a move list that does not win. */
  no: 1,
  /** Bad input: usage, unknown game, bad card, unreadable file, illegal move... */
  usage: 2,
  /** A limit stopped the search before it decided. */
  unknown: 3,
  /** A bug in patience-solver itself. */
  internal: 4,
} as const;

/**
 * One CLI command. To add a command:
 *   1. create src/cli/commands/<name>.ts exporting `defineCommand({ command, describe, builder, run })`
 *      (the shared option builders are `withDealOptions`, `withRuleFlags` and `withLimitOptions`;
 *      the matching readers are `readDeal` and `limitsFromArgs`; long work shows `createProgress`);
 *   2. add it to COMMANDS in src/cli/commands/index.ts;
 *   3. test it in test/cli/<name>.test.ts through the built CLI, and document it in docs/cli.md.
 * `run` prints to stdout and returns the exit code. User errors are thrown as PatienceError (one
 * line, no period needed); main() prints them as `patience: <message>` and exits 2.
 */
export interface CommandSpec<T> {
  /** yargs command string, e.g. `show [game]`. */
  command: string;
  describe: string;
  builder: (yargs: Argv) => Argv<T>;
  run: (args: ArgumentsCamelCase<T>) => number | Promise<number>;
}

// The argument type is erased once a command is defined, so that commands of different argument
// types fit in one list; defineCommand checks each spec against its own builder first.
export interface Command {
  readonly name: string;
  readonly command: string;
  readonly describe: string;
  readonly builder: (yargs: Argv) => Argv<unknown>;
  readonly run: (args: ArgumentsCamelCase<unknown>) => number | Promise<number>;
}

export function defineCommand<T>(spec: CommandSpec<T>): Command {
  return {
    name: spec.command.split(/\s/)[0]!,
    command: spec.command,
    describe: spec.describe,
    builder: spec.builder as Command['builder'],
    // yargs hands run() the arguments its builder declared, so the cast only forgets what it checked.
    run: (args) => spec.run(args as ArgumentsCamelCase<T>),
  };
}

/**
 * A yargs check refusing on/off flags that may not be on together. yargs's own `conflicts` also
 * fires on `--no-` forms (`--json --no-verbose`), which ask for nothing contradictory.
 */
export function notTogether(...pairs: [string, string][]): (args: Record<string, unknown>) => true {
  return (args) => {
    for (const [a, b] of pairs) if (args[a] === true && args[b] === true) throw new PatienceError(`--${a} and --${b} contradict each other: give one of them`);
    return true;
  };
}
