/**
 * One writer a result file: a run that writes `f` (a new file, a resumed one, a retry's output, a
 * merge's output) first creates `f.lock`, naming its process. A second run on the same file is
 * refused while the first is alive, instead of both appending the same deals (or, resuming, one
 * cutting off at its scanned length what the other had appended since).
 *
 * A lock whose process is gone (kill -9, a crash, a second Ctrl-C) is taken over. On the lock's own
 * machine that is known exactly: the process is looked up by number and, on Linux, by its start
 * time too, so a number used again by another process does not count. A lock written on another
 * machine (a shard retried on another node of a cluster, whose task was pre-empted) cannot be
 * checked: it is taken over with a warning, since the batch engine runs one task a shard.
 */
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { fail } from '../errors';

/** What a lock file holds (JSON, one line). */
interface LockBody {
  pid: number;
  host: string;
  /** The process's start time in clock ticks since boot (/proc/PID/stat), null where unknown. */
  since: string | null;
  started: string;
  token: string;
}

/** A held lock: `release` removes the file if it is still this lock's; `warning` tells of a lock taken over. */
export interface RunLock {
  readonly path: string;
  readonly warning: string | undefined;
  release(): void;
}

/**
 * Process `pid` as /proc/PID/stat gives it: its state (field 3) and start time (field 22), null
 * where unreadable (no such process, or no /proc).
 */
function processStat(pid: number): { state: string; since: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] === undefined ? null : { state: fields[0]!, since: fields[19] };
  } catch {
    return null;
  }
}

/** Whether the process a lock names on this machine still runs (the same process, not its number reused). */
function alive(body: LockBody): boolean {
  try {
    process.kill(body.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false; // ESRCH: gone
  }
  const now = processStat(body.pid);
  if (now === null) return true; // no /proc to ask: the number alone
  // A zombie (killed, its parent not yet told) writes nothing more.
  return now.state !== 'Z' && now.state !== 'X' && (body.since === null || now.since === body.since);
}

/**
 * A lock is created empty and written just after: one that cannot be read but was made less than
 * this long ago may be another run's, half written; it is looked at again until then.
 */
const TORN_GRACE_MS = 2000;

function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function parseBody(text: string): LockBody | null {
  try {
    const body = JSON.parse(text) as LockBody;
    if (typeof body !== 'object' || body === null || !Number.isSafeInteger(body.pid) || body.pid <= 0 || typeof body.host !== 'string') return null;
    return body;
  } catch {
    return null; // torn (a process stopped while writing it) or not ours: nothing to respect
  }
}

function readBody(lockPath: string): LockBody | null {
  try {
    return parseBody(readFileSync(lockPath, 'utf8'));
  } catch {
    return null; // gone, or not a file we can read: nothing to respect
  }
}

/** The lock file's text, null when it is gone; a lock that cannot be read otherwise is refused in one line. */
function readText(lockPath: string): string | null {
  try {
    return readFileSync(lockPath, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return fail(`cannot read the lock ${lockPath}: ${(e as Error).message}`);
  }
}

/**
 * The lock file as found (`text` null: gone), waiting out one that cannot be read while it may
 * still be being written (made less than TORN_GRACE_MS ago, by its time or ours).
 */
function settledLock(lockPath: string): { text: string | null; body: LockBody | null } {
  const deadline = Date.now() + TORN_GRACE_MS;
  for (;;) {
    const text = readText(lockPath);
    const body = text === null ? null : parseBody(text);
    if (text === null || body !== null || Date.now() >= deadline) return { text, body };
    let made: number;
    try {
      made = statSync(lockPath).mtimeMs;
    } catch {
      continue; // gone since: read again
    }
    if (Date.now() - made >= TORN_GRACE_MS) return { text, body };
    sleepMs(25);
  }
}

function holder(body: LockBody): string {
  const since = typeof body.started === 'string' ? `, since ${body.started}` : '';
  return `process ${body.pid} on ${body.host}${since}`;
}

/**
 * The run on this machine that is writing result file `path` now ("process 1702 on vm, since
 * ..."), or undefined: none, this process, or one that cannot be checked from here.
 */
export function liveWriter(path: string): string | undefined {
  const body = readBody(`${path}.lock`);
  if (body === null || body.host !== hostname() || body.pid === process.pid || !alive(body)) return undefined;
  return holder(body);
}

/**
 * Locks result file `path` for this process's run, refusing (one line, PatienceError) when a live
 * run on this machine holds it.
 */
export function lockResultFile(path: string): RunLock {
  const lockPath = `${path}.lock`;
  const body: LockBody = {
    pid: process.pid,
    host: hostname(),
    since: processStat(process.pid)?.since ?? null,
    started: new Date().toISOString(),
    token: randomBytes(8).toString('hex'),
  };
  let warning: string | undefined;
  for (let attempt = 0; ; attempt++) {
    let fd: number;
    try {
      fd = openSync(lockPath, 'wx');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST' || attempt >= 3) fail(`cannot lock result file ${path} (${lockPath}): ${(e as Error).message}`);
      const { text, body: other } = settledLock(lockPath);
      if (text === null) continue; // released meanwhile
      if (other !== null && other.host === body.host && alive(other)) {
        fail(`${path} is being written by another run (${holder(other)}): wait for it to end or stop it (its lock is ${lockPath})`);
      }
      // Another run may have taken the stale lock over while this one looked at it: only the lock
      // as judged is removed (the window left is the one between this read and the unlink).
      if (readText(lockPath) !== text) continue;
      if (other === null) warning = `${lockPath} could not be read (a run stopped while writing it?): taken over`;
      else if (other.host !== body.host) {
        warning = `${lockPath} names a run on another machine (${holder(other)}) that cannot be checked from here: taken over; if that run still goes on, stop one of the two`;
      }
      try {
        unlinkSync(lockPath);
      } catch (e2) {
        if ((e2 as NodeJS.ErrnoException).code !== 'ENOENT') fail(`cannot take over the lock ${lockPath}: ${(e2 as Error).message}`);
      }
      continue;
    }
    try {
      writeSync(fd, JSON.stringify(body) + '\n');
    } finally {
      closeSync(fd);
    }
    break;
  }
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    process.removeListener('exit', release);
    // Only this lock's own file: a run that took over a lock it thought stale must keep its own.
    if (readBody(lockPath)?.token !== body.token) return;
    try {
      unlinkSync(lockPath);
    } catch {
      /* gone already */
    }
  };
  // A second Ctrl-C exits at once, past every `finally`: the lock goes with the process.
  process.on('exit', release);
  return { path: lockPath, warning, release };
}
