import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CODE_WINNABLE } from '../../src/analyze/records';
import { encodeRecord, makeHeader, ResultWriter } from '../../src/analyze/result-file';
import { mergeResults } from '../../src/analyze/results';
import { lockResultFile } from '../../src/analyze/run-lock';
import { winRate } from '../../src/pool/winrate';

const dir = mkdtempSync(join(tmpdir(), 'patience-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;
const fresh = (name: string) => join(dir, `${++counter}-${name}.msgpack`);

/** The number of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

const lockBody = (fields: Record<string, unknown>) => JSON.stringify({ pid: process.pid, host: hostname(), since: null, started: '2026-01-01T00:00:00.000Z', token: 'other', ...fields });

describe('one run at a time on a result file', () => {
  it('refuses a second lock while the first is held, and takes it once released', () => {
    const file = fresh('a');
    const lock = lockResultFile(file);
    expect(lock.path).toBe(`${file}.lock`);
    expect(lock.warning).toBeUndefined();
    expect(JSON.parse(readFileSync(lock.path, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    expect(() => lockResultFile(file)).toThrow(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is being written by another run \\(process ${process.pid} on .+, since .+\\): wait for it to end or stop it \\(its lock is .+\\.lock\\)$`),
    );
    lock.release();
    expect(existsSync(lock.path)).toBe(false);
    lock.release(); // twice is harmless
    const again = lockResultFile(file);
    expect(again.warning).toBeUndefined();
    again.release();
  });

  it('takes over a lock whose process has ended, quietly', () => {
    const file = fresh('dead');
    writeFileSync(`${file}.lock`, lockBody({ pid: deadPid() }));
    const lock = lockResultFile(file);
    expect(lock.warning).toBeUndefined();
    expect(JSON.parse(readFileSync(lock.path, 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it.skipIf(!existsSync('/proc/self/stat'))('does not take a process number used again for the run that wrote the lock', () => {
    const file = fresh('reused');
    // This process's number, but another start time: the lock's writer is gone.
    writeFileSync(`${file}.lock`, lockBody({ since: '1' }));
    const lock = lockResultFile(file);
    expect(lock.warning).toBeUndefined();
    lock.release();
  });

  it('takes over, with a warning, a lock from another machine or one it cannot read', () => {
    const file = fresh('foreign');
    writeFileSync(`${file}.lock`, lockBody({ host: 'node-17.cluster', pid: 4242 }));
    const foreign = lockResultFile(file);
    expect(foreign.warning).toBe(
      `${file}.lock names a run on another machine (process 4242 on node-17.cluster, since 2026-01-01T00:00:00.000Z) that cannot be checked from here: taken over; if that run still goes on, stop one of the two`,
    );
    foreign.release();
    writeFileSync(`${file}.lock`, '{"pid":');
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${file}.lock`, old, old); // torn a minute ago: not one being written now
    const started = Date.now();
    const torn = lockResultFile(file);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(torn.warning).toBe(`${file}.lock could not be read (a run stopped while writing it?): taken over`);
    torn.release();
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('waits for a lock just made to be written, and refuses it when its run is alive', async () => {
    const file = fresh('half');
    writeFileSync(`${file}.lock`, ''); // created, not yet written
    // Another run writes its lock 300 ms later and goes on running.
    const script = `setTimeout(() => require('fs').writeFileSync(${JSON.stringify(`${file}.lock`)}, JSON.stringify({ pid: process.pid, host: require('os').hostname(), since: null, started: 'then', token: 't' })), 300); setTimeout(() => {}, 20000);`;
    const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
    try {
      expect(() => lockResultFile(file)).toThrow(new RegExp(`is being written by another run \\(process ${child.pid} on `));
    } finally {
      child.kill('SIGKILL');
    }
    await new Promise((done) => child.once('exit', done));
    const lock = lockResultFile(file); // its run has ended: taken over quietly
    expect(lock.warning).toBeUndefined();
    lock.release();
  });

  it('takes over a lock just made that stays unwritten, once it is old enough to be torn', () => {
    const file = fresh('torn-new');
    writeFileSync(`${file}.lock`, '');
    const started = Date.now();
    const lock = lockResultFile(file);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    expect(lock.warning).toBe(`${file}.lock could not be read (a run stopped while writing it?): taken over`);
    lock.release();
  });

  it('leaves alone a lock another run has taken over since', () => {
    const file = fresh('taken');
    const lock = lockResultFile(file);
    writeFileSync(lock.path, lockBody({ pid: 1, token: 'someone else' }));
    lock.release();
    expect(existsSync(lock.path)).toBe(true);
    rmSync(lock.path);
  });

  it('winRate and mergeResults refuse a file another run holds, and leave no lock behind', async () => {
    const file = fresh('run');
    const lock = lockResultFile(file);
    await expect(winRate({ game: 'british-canister', deals: 3, nodeLimit: 100, workers: 0, out: file })).rejects.toThrow(/is being written by another run/);
    expect(existsSync(file)).toBe(false);
    lock.release();
    const run = await winRate({ game: 'british-canister', deals: 3, nodeLimit: 100, workers: 0, out: file });
    expect(run.deals).toBe(3);
    expect(existsSync(`${file}.lock`)).toBe(false);
    const held = lockResultFile(file);
    await expect(winRate({ resume: file, workers: 0 })).rejects.toThrow(/is being written by another run/);
    held.release();

    const part = fresh('part');
    const w = ResultWriter.create(part, makeHeader({ game: 'canister', rules: { game: 'canister', ranks: 13 }, from: 1, deals: 1, shard: null, limits: { nodeLimit: 10, timeLimitMs: null, memoryMiB: null }, saveSolutions: false }));
    w.write([encodeRecord(1, CODE_WINNABLE, 1, 1, 10)]);
    w.close();
    const out = fresh('merged');
    const mergeLock = lockResultFile(out);
    expect(() => mergeResults([part], { out })).toThrow(/is being written by another run/);
    mergeLock.release();
    expect(mergeResults([part], { out }).records).toBe(1);
    expect(existsSync(`${out}.lock`)).toBe(false);
  });
});
