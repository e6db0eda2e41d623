import { readFileSync } from 'node:fs';
import { PatienceError } from '../index';

/** Reads a text file named on the command line; `-` reads standard input. */
export function readText(path: string, what: string): string {
  if (path === '') throw new PatienceError(`--${what} needs a file name, or - for standard input`);
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'no such file'
      : code === 'EISDIR' ? 'it is a directory'
      : code === 'EACCES' ? 'permission denied'
      : ((e as Error).message ?? String(e));
    throw new PatienceError(`cannot read ${what} ${path === '-' ? 'from standard input' : `file ${path}`}: ${why}`);
  }
}

/** The name a file argument is shown under in messages. */
export const sourceName = (path: string): string => (path === '-' ? 'stdin' : path);

/** Writes each warning given (none: nothing) as one line `patience: warning: ...` on stderr. */
export function warn(...warnings: readonly (string | undefined)[]): void {
  for (const w of warnings) if (w !== undefined) process.stderr.write(`patience: warning: ${w}\n`);
}

/** Writes text and a newline to stdout. */
export function print(text = ''): void {
  process.stdout.write(text + '\n');
}
