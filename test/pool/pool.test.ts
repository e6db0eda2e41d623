import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readResults } from '../../src/analyze/results';
import { replay } from '../../src/referee/referee';
import { dealFromSeed } from '../../src/rules/deal';
import { parseMove } from '../../src/rules/notation';
import { PRESET_NAMES, resolveRules } from '../../src/rules/rules';
import { Solver } from '../../src/search/solver';
import { type WinRateOptions, winRate } from '../../src/pool/winrate';
import type { DealRecord } from '../../src/analyze/records';

// The pool loads the built worker (dist/worker.js): `npm test` builds first.
// Node limits (not time limits) keep every verdict deterministic and the deals quick.
const LIMITS = { nodeLimit: 2000, memoryMiB: 16 };
const DEALS = 300;

const dir = mkdtempSync(join(tmpdir(), 'patience-pool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;
const fresh = (name: string) => join(dir, `${++counter}-${name}.msgpack`);

/** Per deal: verdict, reason and nodes (what must not depend on how the deals were spread). */
function outcomes(records: Iterable<DealRecord>): Map<number, string> {
  const map = new Map<number, string>();
  for (const r of records) map.set(r.deal, `${r.verdict}${r.reason ? `/${r.reason}` : ''} ${r.nodes}${r.error ? ` ${r.error}` : ''}`);
  return new Map([...map].sort((a, b) => a[0] - b[0]));
}

async function runToFile(options: WinRateOptions & { out: string }) {
  const result = await winRate(options);
  return { result, table: readResults(options.out).table };
}

describe('the worker pool', () => {
  it.each(PRESET_NAMES)('gives %s the same verdict for every deal as solving them one by one in this thread', async (game) => {
    const out = fresh(game);
    // A time limit no deal reaches makes each worker warm its solver up first (src/pool/batch.ts),
    // which must change no deal's nodes.
    const { result, table } = await runToFile({ game, deals: DEALS, ...LIMITS, timeLimitMs: 600_000, workers: 2, out, saveSolutions: game === 'canfield' });
    expect(result).toMatchObject({ deals: DEALS, missing: 0, errors: 0, workers: 2, interrupted: false, complete: true });
    const rules = resolveRules(game);
    const solver = new Solver({ memoryMiB: LIMITS.memoryMiB });
    const expected = new Map<number, string>();
    let won = 0;
    for (let deal = 1; deal <= DEALS; deal++) {
      const r = solver.solve(dealFromSeed(rules, deal), LIMITS);
      expected.set(deal, `${r.verdict}${r.reason ? `/${r.reason}` : ''} ${r.nodes}`);
      if (r.verdict === 'winnable') won++;
    }
    expect(outcomes(table)).toEqual(expected);
    expect(result.won).toBe(won);
    if (game === 'canfield') {
      // Saved solutions are move notation that the referee replays to a win.
      const winners = [...table].filter((r) => r.verdict === 'winnable');
      expect(winners.length).toBeGreaterThan(0);
      for (const r of winners) {
        const start = dealFromSeed(rules, r.deal);
        expect(r.solution).toHaveLength(r.solutionLength);
        expect(replay(start, r.solution!.map((m) => parseMove(m)))).toMatchObject({ legal: true, won: true });
      }
    }
  });

  it('reports a deal whose solving throws as an error and solves the others, in the pool and in this thread', async () => {
    const faults = { throwOn: [5, 17] };
    for (const workers of [2, 0]) {
      const out = fresh(`faults-${workers}`);
      const { result, table } = await runToFile({ game: 'canfield', deals: 40, ...LIMITS, workers, out, testFaults: faults });
      expect(result).toMatchObject({ deals: 40, errors: 2, missing: 0, complete: true });
      expect(result.errorDeals).toEqual([
        { deal: 5, message: 'forced failure of deal 5 (test fault)' },
        { deal: 17, message: 'forced failure of deal 17 (test fault)' },
      ]);
      const clean = await winRate({ game: 'canfield', deals: 40, ...LIMITS, workers: 0, out: fresh('clean') });
      const all = outcomes(table);
      const good = outcomes(readResults(clean.file!).table);
      for (const [deal, text] of all) {
        if (deal === 5 || deal === 17) expect(text).toMatch(/^error 0 forced failure/);
        else expect(text).toBe(good.get(deal));
      }
    }
  });

  it('replays every win with the referee and records one that does not replay as an error', async () => {
    const clean = await winRate({ game: 'canfield', deals: 12, ...LIMITS, workers: 0, out: fresh('replay-clean') });
    const winners = [...readResults(clean.file!).table].filter((r) => r.verdict === 'winnable').map((r) => r.deal);
    expect(winners.length).toBeGreaterThan(1);
    const bad = winners.slice(0, 2);
    for (const workers of [2, 0]) {
      const { result, table } = await runToFile({ game: 'canfield', deals: 12, ...LIMITS, workers, out: fresh(`replay-${workers}`), testFaults: { truncateOn: bad } });
      expect(result).toMatchObject({ deals: 12, errors: 2, missing: 0 });
      for (const deal of bad) expect([...table].find((r) => r.deal === deal)!.error).toBe(`solver bug: the solution of deal ${deal} does not win`);
    }
  });

  it('replaces a worker that dies, records the deal it died on as an error, and goes on', async () => {
    const out = fresh('crash');
    const { result, table } = await runToFile({ game: 'canister', deals: 60, ...LIMITS, workers: 2, out, testFaults: { exitOn: [12] } });
    expect(result).toMatchObject({ deals: 60, errors: 1, missing: 0 });
    const crashed = [...table].find((r) => r.deal === 12)!;
    expect(crashed.verdict).toBe('error');
    expect(crashed.error).toMatch(/^the worker died solving this deal: /);
    expect([...table].filter((r) => r.verdict === 'error')).toHaveLength(1);
  });

  it('stops cleanly on abort, keeps every finished deal, and a resume ends where an uninterrupted run does', async () => {
    const options = { game: 'canfield-sequences', deals: 400, ...LIMITS, workers: 2 };
    const whole = await runToFile({ ...options, out: fresh('whole') });
    for (const workers of [2, 0]) {
      const out = fresh(`abort-${workers}`);
      const controller = new AbortController();
      const first = await winRate(
        { ...options, workers, out },
        { signal: controller.signal, onProgress: (p) => p.done >= 100 && controller.abort() },
      );
      expect(first.interrupted).toBe(true);
      expect(first.deals).toBeGreaterThanOrEqual(100);
      expect(first.deals).toBeLessThan(400);
      const kept = readResults(out);
      expect(kept.warnings).toEqual([]);
      expect(kept.table.size).toBe(first.deals);
      const second = await winRate({ resume: out, workers });
      expect(second).toMatchObject({ resumed: first.deals, solved: 400 - first.deals, deals: 400, interrupted: false, complete: true });
      expect(outcomes(readResults(out).table)).toEqual(outcomes(whole.table));
      expect(second.won).toBe(whole.result.won);
      expect(second.interval).toEqual(whole.result.interval);
    }
  });

  it('resumes a file torn in the middle of a record: drops the torn bytes with a warning and finishes the run', async () => {
    const options = { game: 'storehouse', deals: 120, ...LIMITS, workers: 0 };
    const whole = await runToFile({ ...options, out: fresh('whole') });
    const out = fresh('torn');
    const bytes = readFileSync(whole.result.file!);
    writeFileSync(out, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const resumed = await winRate({ resume: out, workers: 2 });
    expect(resumed.warnings).toHaveLength(1);
    expect(resumed.warnings[0]).toMatch(/is truncated: the file ends \d+ bytes into it/);
    expect(resumed).toMatchObject({ deals: 120, complete: true, won: whole.result.won, lost: whole.result.lost, unknown: whole.result.unknown });
    const after = readResults(out);
    expect(after.warnings).toEqual([]);
    expect(outcomes(after.table)).toEqual(outcomes(whole.table));
  });

  it('refuses to resume with options that contradict the file', async () => {
    const out = fresh('small');
    await winRate({ game: 'british-canister', deals: 10, ...LIMITS, workers: 0, out });
    await expect(winRate({ resume: out, nodeLimit: 5000 })).rejects.toThrow(`cannot resume ${out} with node limit 5000: the file was started with 2000 (leave it out to keep the file's)`);
    await expect(winRate({ resume: out, game: 'canister' })).rejects.toThrow(/with game canister: the file was started with british-canister/);
    await expect(winRate({ resume: out, deals: 11 })).rejects.toThrow(/with deals 11: the file was started with 10/);
    await expect(winRate({ resume: out, game: 'british-canister', rules: { ranks: 12 } })).rejects.toThrow(
      `cannot resume ${out} with other rules (ranks 12 vs the file's 13): leave the rule flags out to keep the file's`,
    );
    await expect(winRate({ resume: out, rules: { ranks: 12 } })).rejects.toThrow(/with rule overrides but no game/);
    await expect(winRate({ resume: out, shard: '1/2' })).rejects.toThrow(/with shard 1\/2: the file was started with none/);
    await expect(winRate({ resume: out, saveSolutions: true })).rejects.toThrow(/with --save-solutions true: the file was started with solutions not saved/);
    await expect(winRate({ game: 'canister', deals: 5, out })).rejects.toThrow(/already exists: remove it first or give another name \(a winrate run's file is continued with winrate --resume /);
    await expect(winRate({ game: 'canister', deals: 5, out: fresh('x'), resume: out })).rejects.toThrow(/not both/);
    await expect(winRate({ game: 'canister', deals: 8, shard: '1/2', shardCount: 3 })).rejects.toThrow('--shard 1/2 and --shard-count 3 disagree');
    await expect(winRate({ game: 'canister', deals: 0 })).rejects.toThrow(/bad number of deals 0/);
    await expect(winRate({ game: 'canister', deals: 5, nodeLimit: 1.5 })).rejects.toThrow('bad node limit 1.5: expected a whole number above 0');
  });
});

describe('retrying the undecided deals of a file at higher limits', () => {
  const game = 'canfield-sequences';
  const low = { game, deals: 200, ...LIMITS, workers: 2 };
  const high = { nodeLimit: 20_000 };

  it('gives every deal the result a run at the higher limits gives, and leaves the file retried as it was', async () => {
    const first = await runToFile({ ...low, out: fresh('low') });
    expect(first.result.unknown).toBeGreaterThan(5);
    const before = readFileSync(first.result.file!);
    const direct = await runToFile({ ...low, ...high, out: fresh('high') });
    const out = fresh('retried');
    const retried = await winRate({ retry: first.result.file!, ...high, workers: 2, out });
    expect(retried).toMatchObject({ resumed: 200 - first.result.unknown, solved: first.result.unknown, deals: 200, complete: true, won: direct.result.won, lost: direct.result.lost });
    expect(retried.unknown).toBeLessThan(first.result.unknown);
    const set = readResults(out);
    expect(set.warnings).toEqual([]);
    expect(outcomes(set.table)).toEqual(outcomes(direct.table));
    expect(set.header.limits).toEqual({ ...direct.result.limits });
    expect(set.header.retriedFrom).toEqual([
      { file: first.result.file!.split('/').at(-1), limits: first.result.limits, kept: 200 - first.result.unknown, retried: first.result.unknown, retriedMs: expect.any(Number) },
    ]);
    expect(readFileSync(first.result.file!).equals(before)).toBe(true);

    // Retried again, the list of files grows; merged with a shard of its own limits, it is kept.
    const again = await winRate({ retry: out, nodeLimit: 40_000, workers: 0, out: fresh('again') });
    expect(readResults(again.file!).header.retriedFrom!.map((r) => r.limits.nodeLimit)).toEqual([2000, 20_000]);
    const next = await runToFile({ ...low, ...high, from: 201, deals: 20, out: fresh('next') });
    const { mergeResults } = await import('../../src/analyze/results');
    const merged = mergeResults([out, next.result.file!], { out: fresh('merged') });
    expect(merged.summary).toMatchObject({ deals: 220, won: retried.won + next.result.won });
    expect(readResults(merged.out).header.retriedFrom).toEqual(set.header.retriedFrom);
  });

  it('is continued after an interruption like any run, and solves the deals a torn file lacks', async () => {
    const first = await runToFile({ ...low, out: fresh('low') });
    const direct = await runToFile({ ...low, ...high, out: fresh('high') });
    const out = fresh('retry-stopped');
    const controller = new AbortController();
    // One deal a batch, so that deals are still unsent when the first result stops the run, however
    // the batches would be sized on a busy machine (a retry of a few deals fits in the first batches).
    const stopped = await winRate({ retry: first.result.file!, ...high, workers: 2, maxBatch: 1, out }, { signal: controller.signal, onProgress: () => controller.abort() });
    expect(stopped.interrupted).toBe(true);
    const resumed = await winRate({ resume: out, workers: 2 });
    expect(resumed).toMatchObject({ deals: 200, complete: true, won: direct.result.won });
    expect(outcomes(readResults(out).table)).toEqual(outcomes(direct.table));

    const torn = fresh('torn-low');
    const bytes = readFileSync(first.result.file!);
    // Cut inside a record, not between two (a cut between records is a file that merely lacks deals):
    // the records' sizes vary with the times they hold, so a fixed cut sometimes fell on a boundary.
    let cut = Math.floor(bytes.length * 0.5);
    for (; cut < bytes.length; cut++) {
      writeFileSync(torn, bytes.subarray(0, cut));
      if (readResults(torn).warnings.some((w) => /is truncated/.test(w))) break;
    }
    expect(cut).toBeLessThan(bytes.length);
    const fromTorn = await winRate({ retry: torn, ...high, workers: 2, out: fresh('from-torn') });
    expect(fromTorn.warnings[0]).toMatch(/is truncated/);
    expect(outcomes(readResults(fromTorn.file!).table)).toEqual(outcomes(direct.table));
  });

  it('refuses a retry that could not decide more, or contradicts the file, in one line', async () => {
    const file = fresh('refused');
    await winRate({ ...low, deals: 60, out: file });
    const out = fresh('unused');
    await expect(winRate({ retry: file, workers: 0, out })).rejects.toThrow(`retrying ${file} needs a higher limit than the file's`);
    await expect(winRate({ retry: file, nodeLimit: 1000, out })).rejects.toThrow(`cannot retry ${file} with node limit 1000: the file was run with 2000, and a retry may only raise limits`);
    await expect(winRate({ retry: file, timeLimitMs: 60_000, out })).rejects.toThrow(/with time limit \(ms\) 60000: the file was run with none/);
    await expect(winRate({ retry: file, memoryMiB: 8, nodeLimit: 5000, out })).rejects.toThrow(/with memory \(MiB\) 8: the file was run with 16/);
    await expect(winRate({ retry: file, ...high })).rejects.toThrow(/needs a new result file for the retried run/);
    await expect(winRate({ retry: file, ...high, out: file })).rejects.toThrow(/is the file being retried/);
    await expect(winRate({ retry: file, ...high, resume: file })).rejects.toThrow(/not both/);
    await expect(winRate({ retry: file, ...high, out, game: 'canfield' })).rejects.toThrow(/cannot retry .* with game canfield: the file was started with canfield-sequences/);
    const decided = fresh('all-decided');
    await winRate({ game: 'british-canister', deals: 10, ...LIMITS, workers: 0, out: decided });
    await expect(winRate({ retry: decided, ...high, out })).rejects.toThrow(`nothing to retry: every deal of ${decided} is decided`);
  });
});

describe('shards of a run', () => {
  it('4 shards run separately and merged give the same deals as one run', async () => {
    const { mergeResults } = await import('../../src/analyze/results');
    const options = { game: 'canfield', deals: 150, from: 1000, ...LIMITS, workers: 0 };
    const whole = await runToFile({ ...options, out: fresh('whole') });
    const parts: string[] = [];
    for (const index of [1, 2, 3, 4]) {
      const out = fresh(`shard-${index}`);
      const r = await winRate({ ...options, shard: `${index}/4`, out });
      expect(r.shard).toEqual({ index, count: 4 });
      expect(r.deals).toBeGreaterThanOrEqual(37);
      parts.push(out);
    }
    const merged = mergeResults(parts, { out: fresh('merged') });
    expect(merged.warnings).toEqual([]);
    expect(outcomes(readResults(merged.out).table)).toEqual(outcomes(whole.table));
    expect(merged.summary).toMatchObject({ deals: 150, won: whole.result.won, lost: whole.result.lost, unknown: whole.result.unknown, interval: whole.result.interval });
  });
});
