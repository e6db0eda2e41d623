import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readResults } from '../../src/analyze/results';
import { defaultMemoryMiB } from '../../src/pool/memory';
import { CLI, expectUserError, runCli, scratchDir } from './run-cli';

/** The table each deal gets when a run names none (`--workers 0`: the main thread), as the header records it. */
const TABLE_MIB = defaultMemoryMiB(0);

const scratch = scratchDir();
afterAll(() => scratch.cleanup());
const path = (name: string) => join(scratch.dir, name);

// Node limits keep every verdict deterministic, so an interrupted and resumed run must end with
// exactly the results of an uninterrupted one.
const RUN = ['winrate', 'canfield', '--deals', '1500', '--node-limit', '2000', '--memory', '16', '--workers', '2', '--quiet'];

/** Per deal: verdict, reason and nodes. */
function outcomes(file: string): string[] {
  const set = readResults(file);
  expect(set.warnings).toEqual([]);
  return [...set.table].sort((a, b) => a.deal - b.deal).map((r) => `${r.deal} ${r.verdict} ${r.reason ?? ''} ${r.nodes}`);
}

function start(args: readonly string[]): { child: ChildProcess; done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

/** Waits until the result file holds at least `bytes` bytes (some hundred deals), then sends `signal`. */
async function interruptWhenGrown(args: readonly string[], file: string, bytes: number, signal: NodeJS.Signals) {
  const run = start(args);
  let running = true;
  void run.done.then(() => (running = false));
  while (running && !(existsSync(file) && statSync(file).size >= bytes)) await new Promise((r) => setTimeout(r, 10));
  expect(running).toBe(true); // the run must still be going when it is interrupted
  run.child.kill(signal);
  return run.done;
}

describe('patience winrate: interrupt and resume', () => {
  let whole: string[] = [];
  let wholeJson: Record<string, unknown> = {};

  it('runs uninterrupted to a summary on stdout (the reference for the interrupted runs)', async () => {
    const out = path('whole.msgpack');
    const r = await runCli([...RUN, '--out', out, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    wholeJson = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(wholeJson).toMatchObject({ game: 'canfield', deals: 1500, missing: 0, interrupted: false, complete: true, file: out });
    expect(wholeJson.won as number).toBeGreaterThan(0);
    whole = outcomes(out);
    expect(whole).toHaveLength(1500);
  });

  it('loses no finished deal to kill -9, and --resume ends with the same results', async () => {
    const out = path('killed.msgpack');
    const killed = await interruptWhenGrown([...RUN, '--out', out], out, 3000, 'SIGKILL');
    expect(killed.signal).toBe('SIGKILL');
    const partial = readResults(out);
    expect(partial.table.size).toBeGreaterThan(50);
    expect(partial.table.size).toBeLessThan(1500);
    // Whatever was cut off is at most a torn last record.
    expect(partial.warnings.every((w) => /is truncated/.test(w))).toBe(true);
    // The killed run's lock stays behind; its process is gone, so the resume takes it over quietly.
    expect(existsSync(`${out}.lock`)).toBe(true);
    const resumed = await runCli(['winrate', '--resume', out, '--quiet', '--json', '--workers', '2']);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toBe('');
    expect(existsSync(`${out}.lock`)).toBe(false);
    const json = JSON.parse(resumed.stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ resumed: partial.table.size, solved: 1500 - partial.table.size, deals: 1500, complete: true, warnings: [] });
    for (const key of ['won', 'lost', 'unknown', 'winRate', 'interval']) expect(json[key]).toEqual(wholeJson[key]);
    expect(outcomes(out)).toEqual(whole);
  });

  it('stops cleanly on Ctrl-C (exit 130, the summary so far, how to resume), and --resume finishes it', async () => {
    const out = path('sigint.msgpack');
    const stopped = await interruptWhenGrown([...RUN, '--out', out], out, 3000, 'SIGINT');
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toMatch(/SIGINT: stopping after the deals in progress/);
    expect(stopped.stderr).toMatch(new RegExp(`interrupted with \\d+ deals left; continue with: patience winrate --resume ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n$`));
    expect(stopped.stdout).toMatch(/^canfield: \d+ deals? of deals 1-1500, node limit 2000, table 16 MiB per deal\n {2}missing {5}\d+ deals of the range have no result yet\n/);
    const partial = readResults(out);
    expect(partial.warnings).toEqual([]); // a clean stop leaves no torn record
    expect(existsSync(`${out}.lock`)).toBe(false); // nor its lock
    const resumed = await runCli(['winrate', '--resume', out, '--quiet']);
    expect(resumed.code).toBe(0);
    expect(outcomes(out)).toEqual(whole);
  });

  it('refuses a second run on a file that a live run is writing, and report says a run is at it', async () => {
    const out = path('busy.msgpack');
    // Far more deals than the test waits for: the run is stopped once the checks are done.
    const first = start(['winrate', 'canfield', '--deals', '1000000', '--node-limit', '2000', '--memory', '16', '--workers', '1', '--quiet', '--out', out]);
    let running = true;
    void first.done.then(() => (running = false));
    while (running && !(existsSync(out) && statSync(out).size >= 3000)) await new Promise((r) => setTimeout(r, 10));
    expect(running).toBe(true);
    const busy = /^patience: .*busy\.msgpack is being written by another run \(process \d+ on [^,]+, since [^)]+\): wait for it to end or stop it \(its lock is .*busy\.msgpack\.lock\)\n$/;
    expectUserError(await runCli(['winrate', '--resume', out, '--quiet']), busy);
    // report reads it as it stands, and says a run is still at it (not how to resume it).
    const report = await runCli(['report', out]);
    expect(report.code).toBe(0);
    expect(report.stderr).toMatch(/busy\.msgpack lacks \d+ of its 1000000 deals \(a run is writing it now: process \d+ on [^,]+, since [^)]+\)\n/);
    expect(running).toBe(true);
    first.child.kill('SIGINT');
    expect((await first.done).code).toBe(130);
    expect(existsSync(`${out}.lock`)).toBe(false);
    expect((await runCli(['report', out])).stderr).toBe(''); // one file's missing deals are in its summary
  });
});

describe('patience winrate output', () => {
  it('prints counts, the win rate with its interval, speed and the slowest deals', async () => {
    const r = await runCli(['winrate', 'british-canister', '--deals', '50', '--node-limit', '1000', '--workers', '0', '--quiet']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`british-canister: 50 deals of deals 1-50, node limit 1000, table ${TABLE_MIB} MiB per deal`);
    expect(lines[1]).toMatch(/^ {2}won +\d+ +\d+\.\d\d%$/);
    expect(lines[2]).toMatch(/^ {2}lost +\d+ +\d+\.\d\d%$/);
    expect(lines[3]).toMatch(/^ {2}unknown +\d+/);
    expect(r.stdout).toMatch(/\n {2}win rate {4}\d+\.\d+%/);
    expect(r.stdout).toMatch(/\n {2}95% interval \d+\.\d+% - \d+\.\d+% {2}\(Wilson/);
    expect(r.stdout).toMatch(/\n {2}speed {7}[\d.]+ deals\/s; 50 solved in \d+s on the main thread; per deal: mean/);
    expect(r.stdout).toMatch(/\n {2}slowest {5}\d+ \w+/);
  });

  it('--retry solves the undecided deals of a file again at a higher limit, into a new file that report describes', async () => {
    const low = path('retry-low.msgpack');
    const first = await runCli(['winrate', 'canister', '--deals', '40', '--node-limit', '3000', '--workers', '0', '--quiet', '--json', '--out', low]);
    const before = JSON.parse(first.stdout) as { unknown: number; won: number };
    expect(before.unknown).toBeGreaterThan(2);
    // The summary of such a run says how to retry it: ten times the limit that stopped them.
    const shown = await runCli(['winrate', 'canister', '--deals', '40', '--node-limit', '3000', '--workers', '0', '--quiet', '--out', path('retry-shown.msgpack')]);
    expect(shown.stdout).toContain(
      `\n  retry       the ${before.unknown} undecided deals at higher limits: patience winrate --retry ${path('retry-shown.msgpack')} --node-limit 30000 --out ${path('retry-shown-retry.msgpack')}\n`,
    );
    const high = path('retry-high.msgpack');
    const r = await runCli(['winrate', '--retry', low, '--node-limit', '100000', '--out', high, '--workers', '0', '--quiet']);
    expect(r.code).toBe(0);
    const retriedLine = `  retried     ${before.unknown} undecided deals of retry-low.msgpack (node limit 3000, table ${TABLE_MIB} MiB per deal; `;
    expect(r.stdout.split('\n')[0]).toBe(`canister: 40 deals of deals 1-40, node limit 100000, table ${TABLE_MIB} MiB per deal`);
    expect(r.stdout.split('\n')[1]).toContain(retriedLine);
    expect(r.stdout).toMatch(new RegExp(`${before.unknown} solved in`));
    const report = await runCli(['report', high]);
    expect(report.stdout).toContain(retriedLine);
    expectUserError(await runCli(['winrate', '--retry', low, '--out', path('retry-same.msgpack')]), /^patience: retrying .*retry-low\.msgpack needs a higher limit than the file's/);
    expectUserError(await runCli(['winrate', '--retry', low, '--node-limit', '100000']), /needs a new result file for the retried run/);
    expectUserError(await runCli(['winrate', '--retry', low, '--resume', high]), /^patience: .*(retry|resume)/);
  });

  it('warns before it starts when the workers together could need more memory than the machine has', async () => {
    const r = await runCli(['winrate', 'british-canister', '--deals', '4', '--node-limit', '1000', '--workers', '2', '--memory', '50000000', '--quiet']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^patience: warning: --memory 50000000 MiB for each of 2 workers \([\d.]+ GiB in all\) is more than this machine's [\d.]+ GiB: a hard deal may be killed by the system for want of memory instead of stopping as unknown\n$/);
    expect(r.stdout).toMatch(/^british-canister: 4 deals of deals 1-4, node limit 1000, table 50000000 MiB per deal\n/);
  });

  it('names the rules options a run changed from its preset in the summary', async () => {
    const r = await runCli(['winrate', 'storehouse', '--spaces', 'auto-reserve-then-waste', '--draw', '3', '--deals', '3', '--node-limit', '500', '--workers', '0', '--quiet']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(`storehouse (spaces auto-reserve-then-waste, draw 3): 3 deals of deals 1-3, node limit 500, table ${TABLE_MIB} MiB per deal`);
  });

  it('--json prints one object with the counts, the rate and the interval as fractions', async () => {
    const r = await runCli(['winrate', 'storehouse', '--deals', '30', '--from', '100', '--node-limit', '1000', '--workers', '2', '--json', '--quiet']);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as Record<string, number & number[]>;
    expect(json).toMatchObject({ game: 'storehouse', deals: 30, start: 100, end: 130, from: 100, workers: 2 });
    expect(json.won + json.lost + json.unknown + json.errors).toBe(30);
    expect(json.winRate).toBeGreaterThanOrEqual(0);
    expect(json.winRate).toBeLessThanOrEqual(1);
    expect(json.interval[0]).toBeLessThanOrEqual(json.winRate);
    expect(json.interval[1]).toBeGreaterThanOrEqual(json.winRate);
  });

  it('is quiet on stderr when it is not a terminal, and shows plain progress lines there with --progress', async () => {
    const quiet = await runCli(['winrate', 'canister', '--deals', '20', '--node-limit', '500', '--workers', '0']);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
    const r = await runCli(['winrate', 'canister', '--deals', '20', '--node-limit', '500', '--workers', '0', '--progress']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^canister 20\/20 {2}100\.0% {2}.*win \d+(\.\d+)?% \[\d+(\.\d+)?%, \d+(\.\d+)?%\]\n$/m);
    expectUserError(await runCli(['winrate', 'canister', '--deals', '2', '--progress', '--quiet']), /^patience: .*(quiet|progress)/);
  });

  it('refuses bad input in one line', async () => {
    expectUserError(await runCli(['winrate', 'canfield']), 'no number of deals given: add --deals N');
    expectUserError(await runCli(['winrate', '--deals', '10']), /^patience: no game given: patience winrate <game> --deals N/);
    expectUserError(await runCli(['winrate', 'canfield', '--deals', 'ten']), 'bad --deals "ten": expected a whole number from 1 up');
    expectUserError(await runCli(['winrate', 'canfield', '--deals', '10', '--shard', '0/4']), /^patience: bad --shard 0\/4: the shard number must be from 1 to 4/);
    expectUserError(await runCli(['winrate', 'canfield', '--deals', '10', '--shard-count', '4'], { env: { JOB_COMPLETION_INDEX: '', SLURM_ARRAY_TASK_ID: '' } }), /none of JOB_COMPLETION_INDEX/);
    expectUserError(await runCli(['winrate', '--resume', path('nothing.msgpack')]), /cannot read result file .*nothing\.msgpack: no such file/);
    expectUserError(await runCli(['winrate', 'klondike', '--deals', '10']), /^patience: unknown game "klondike"/);
  });

  it('takes its shard from JOB_COMPLETION_INDEX with --shard-count', async () => {
    const r = await runCli(['winrate', 'canister', '--deals', '10', '--node-limit', '300', '--workers', '0', '--shard-count', '3', '--json', '--quiet'], { env: { JOB_COMPLETION_INDEX: '2' } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ shard: { index: 3, count: 3 }, start: 8, end: 11, deals: 3 });
  });
});

describe('patience report and merge', () => {
  const shards = [1, 2].map((k) => path(`shard-${k}.msgpack`));

  it('merge joins shards; report prints the same summary; --csv gives one row per deal', async () => {
    for (const [i, out] of shards.entries()) {
      const r = await runCli(['winrate', 'canfield', '--deals', '40', '--node-limit', '1000', '--workers', '0', '--shard', `${i + 1}/2`, '--out', out, '--quiet']);
      expect(r.code).toBe(0);
    }
    const all = path('all.msgpack');
    const merged = await runCli(['merge', ...shards, '--out', all]);
    expect(merged.stderr).toBe('');
    expect(merged.code).toBe(0);
    expect(merged.stdout).toMatch(new RegExp(`^merged 2 files, 40 deals, into .*all\\.msgpack\ncanfield: 40 deals of deals 1-40, node limit 1000, table ${TABLE_MIB} MiB per deal\n`));
    const report = await runCli(['report', all]);
    expect(report.code).toBe(0);
    expect(merged.stdout.split('\n').slice(1).join('\n')).toBe(report.stdout);
    const both = await runCli(['report', ...shards]);
    expect(both.stdout).toBe(report.stdout);
    const csv = await runCli(['report', all, '--csv']);
    const rows = csv.stdout.trimEnd().split('\n');
    expect(rows[0]).toBe('deal,verdict,reason,nodes,ms,solution_length,solution,error');
    expect(rows).toHaveLength(41);
    expect(rows.slice(1).map((row) => Number(row.split(',')[0]))).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const json = JSON.parse((await runCli(['report', all, '--json'])).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ deals: 40, missing: 0, start: 1, end: 41 });
  });

  it('merge refuses overlapping shards and mismatched limits with exit 2; report of one shard says so', async () => {
    expectUserError(await runCli(['merge', shards[0]!, shards[0]!, '--out', path('x.msgpack')]), /is given twice/);
    const again = path('shard-1-again.msgpack');
    await runCli(['winrate', 'canfield', '--deals', '40', '--node-limit', '1000', '--workers', '0', '--shard', '1/2', '--out', again, '--quiet']);
    expectUserError(await runCli(['merge', shards[0]!, again, '--out', path('x.msgpack')]), /^patience: overlapping results: .* both cover deals 1-20 \(both are shard 1\/2\)/);
    const other = path('other-limit.msgpack');
    await runCli(['winrate', 'canfield', '--deals', '40', '--node-limit', '999', '--workers', '0', '--shard', '2/2', '--out', other, '--quiet']);
    expectUserError(await runCli(['merge', shards[0]!, other, '--out', path('x.msgpack')]), /different limits \(node limit 1000 vs 999/);
    const r = await runCli(['report', shards[0]!]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^canfield: 20 deals of deals 1-20 \\(shard 1/2 of deals 1-40\\), node limit 1000, table ${TABLE_MIB} MiB per deal\n`));
  });
});
