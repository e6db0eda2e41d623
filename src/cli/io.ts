import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { PatienceError } from '../index';

/** The most a position or a move list may take: far above any real one (a 52-card game's moves fit in a few KiB). */
const MAX_TEXT_BYTES = 16 * 2 ** 20;

/**
 * Reads the text file of flag `--flag` (a `what` file); `-` reads standard input. A device or pipe
 * with no end (/dev/zero) stops at MAX_TEXT_BYTES with an error rather than reading forever. A
 * leading UTF-8 byte order mark is dropped.
 */
export function readText(path: string, what: string, flag = what): string {
  if (path === '') throw new PatienceError(`--${flag} needs a file name, or - for standard input`);
  const where = path === '-' ? 'from standard input' : `file ${path}`;
  let fd: number | undefined;
  try {
    fd = path === '-' ? 0 : openSync(path, 'r');
    if (fstatSync(fd).isDirectory()) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(1 << 16);
      let n: number;
      try {
        n = readSync(fd, chunk, 0, chunk.length, null);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EAGAIN') continue; // a non-blocking stdin with nothing yet
        if ((e as NodeJS.ErrnoException).code === 'EOF') break;
        throw e;
      }
      if (n === 0) break;
      total += n;
      if (total > MAX_TEXT_BYTES) throw new PatienceError(`cannot read ${what} ${where}: more than ${MAX_TEXT_BYTES / 2 ** 20} MiB, which no ${what} file is`);
      chunks.push(chunk.subarray(0, n));
    }
    // A byte order mark (Windows Notepad writes one) is not part of the text.
    return Buffer.concat(chunks).toString('utf8').replace(/^\uFEFF/, '');
  } catch (e) {
    if (e instanceof PatienceError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'no such file'
      : code === 'EISDIR' ? 'it is a directory'
      : code === 'EACCES' ? 'permission denied'
      : ((e as Error).message ?? String(e));
    throw new PatienceError(`cannot read ${what} ${where}: ${why}`);
  } finally {
    if (fd !== undefined && fd !== 0) closeSync(fd);
  }
}

/** The name a file argument is shown under in messages. */
export const sourceName = (path: string): string => (path === '-' ? 'stdin' : path);

/** Whether a file argument reads standard input: `-`, or a name for it (/dev/stdin, /dev/fd/0). */
export const readsStdin = (path: string | undefined): boolean =>
  path === '-' || path === '/dev/stdin' || path === '/dev/fd/0' || path === '/proc/self/fd/0';

/** Writes each warning given (none: nothing) as one line `patience: warning: ...` on stderr. */
export function warn(...warnings: readonly (string | undefined)[]): void {
  for (const w of warnings) if (w !== undefined) process.stderr.write(`patience: warning: ${w}\n`);
}

/** Writes text and a newline to stdout. */
export function print(text = ''): void {
  process.stdout.write(text + '\n');
}
