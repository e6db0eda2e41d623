import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { CODE_UNWINNABLE, CODE_WINNABLE } from '../../src/analyze/records';
import { encodeRecord, makeHeader, type RunLimits, ResultWriter } from '../../src/analyze/result-file';
import { mergeResults, readResults, summarize } from '../../src/analyze/results';
import { parseShard, type Shard, shardFromEnv, shardSlice } from '../../src/analyze/shards';

const dir = mkdtempSync(join(tmpdir(), 'patience-merge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;
const fresh = (name: string) => join(dir, `${++counter}-${name}.msgpack`);
const LIMITS: RunLimits = { nodeLimit: 1000, timeLimitMs: null, memoryMiB: null };

/** A result file of shard `shard` of deals from..from+deals-1 where deal d is won when d % 3 == 0; `skip` deals are left unfinished. */
function shardFile(name: string, from: number, deals: number, shard: Shard | null, o: { rules?: Record<string, unknown>; limits?: RunLimits; game?: string; skip?: number[] } = {}) {
  const path = fresh(name);
  const h = makeHeader({ game: o.game ?? 'canister', rules: o.rules ?? { game: 'canister', ranks: 13 }, from, deals, shard, limits: o.limits ?? LIMITS, saveSolutions: false });
  const w = ResultWriter.create(path, h);
  const records: Uint8Array[] = [];
  for (let d = h.start; d < h.end; d++) {
    if (o.skip?.includes(d)) continue;
    records.push(encodeRecord(d, d % 3 === 0 ? CODE_WINNABLE : CODE_UNWINNABLE, d, 1, d % 3 === 0 ? 10 : 0));
  }
  w.write(records);
  w.close();
  return path;
}

describe('shards', () => {
  it('parses K/N counting from 1 and refuses anything else in one line', () => {
    expect(parseShard('3/8')).toEqual({ index: 3, count: 8 });
    expect(parseShard(' 1 / 1 ')).toEqual({ index: 1, count: 1 });
    expect(() => parseShard('0/4')).toThrow('bad --shard 0/4: the shard number must be from 1 to 4 (shards count from 1; 0 is not a shard)');
    expect(() => parseShard('5/4')).toThrow(/from 1 to 4/);
    expect(() => parseShard('2')).toThrow(/expected K\/N/);
    expect(() => parseShard('1/0')).toThrow(/number of shards/);
  });

  it('cuts any range into disjoint contiguous slices that cover it, sizes within one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e9 }), fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 1, max: 300 }), (from, deals, count) => {
        let next = from;
        const sizes: number[] = [];
        for (let index = 1; index <= count; index++) {
          const s = shardSlice(from, deals, { index, count });
          expect(s.start).toBe(next);
          next = s.end;
          sizes.push(s.end - s.start);
        }
        expect(next).toBe(from + deals);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      }),
      { seed: 3, numRuns: 200 },
    );
    expect(shardSlice(1, 10, { index: 1, count: 4 })).toEqual({ start: 1, end: 4 });
    expect(shardSlice(1, 10, { index: 4, count: 4 })).toEqual({ start: 9, end: 11 });
  });

  it('takes the shard from a Kubernetes Indexed Job or a Slurm array, both turned into 1-based shards', () => {
    expect(shardFromEnv(4, { JOB_COMPLETION_INDEX: '0' })).toEqual({ index: 1, count: 4 });
    expect(shardFromEnv(4, { JOB_COMPLETION_INDEX: '3' })).toEqual({ index: 4, count: 4 });
    // --array=1-4 and --array=0-3 both give shards 1..4.
    expect(shardFromEnv(4, { SLURM_ARRAY_TASK_ID: '1', SLURM_ARRAY_TASK_MIN: '1' })).toEqual({ index: 1, count: 4 });
    expect(shardFromEnv(4, { SLURM_ARRAY_TASK_ID: '4', SLURM_ARRAY_TASK_MIN: '1' })).toEqual({ index: 4, count: 4 });
    expect(shardFromEnv(4, { SLURM_ARRAY_TASK_ID: '0', SLURM_ARRAY_TASK_MIN: '0' })).toEqual({ index: 1, count: 4 });
    expect(shardFromEnv(4, { PATIENCE_SHARD_INDEX: '2' })).toEqual({ index: 3, count: 4 });
    expect(() => shardFromEnv(4, { JOB_COMPLETION_INDEX: '4' })).toThrow('JOB_COMPLETION_INDEX=4 (0-based) gives shard position 4, outside 0..3 for --shard-count 4');
    expect(() => shardFromEnv(4, { SLURM_ARRAY_TASK_ID: '5', SLURM_ARRAY_TASK_MIN: '1' })).toThrow(/outside 0..3/);
    expect(() => shardFromEnv(4, { SLURM_ARRAY_TASK_ID: '2', SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_STEP: '2' })).toThrow(/step 2/);
    expect(() => shardFromEnv(4, {})).toThrow(/none of JOB_COMPLETION_INDEX .* is set: give --shard K\/N instead/);
    expect(() => shardFromEnv(4, { JOB_COMPLETION_INDEX: 'x' })).toThrow(/bad JOB_COMPLETION_INDEX "x"/);
  });
});

describe('merge', () => {
  it('joins 4 shards into the same deals as one file of the whole range', () => {
    const whole = shardFile('whole', 1, 103, null);
    const shards = [1, 2, 3, 4].map((index) => shardFile(`s${index}`, 1, 103, { index, count: 4 }));
    const out = fresh('merged');
    const report = mergeResults([shards[2]!, shards[0]!, shards[3]!, shards[1]!], { out });
    expect(report.warnings).toEqual([]);
    expect(report.records).toBe(103);
    expect(report.header).toMatchObject({ from: 1, deals: 103, start: 1, end: 104, shard: null });
    expect(report.header.mergedFrom!.map((m) => m.shard?.index)).toEqual([3, 1, 4, 2]);
    const a = readResults(out);
    const b = readResults(whole);
    const rows = (t: typeof a.table) => [...t].sort((x, y) => x.deal - y.deal);
    expect(rows(a.table)).toEqual(rows(b.table));
    const { winRate, interval, won, lost, deals } = summarize(b);
    expect(summarize(a)).toMatchObject({ winRate, interval, won, lost, deals, missing: 0 });
    expect(report.summary).toMatchObject({ winRate, interval, won, lost, deals });
    // Reading the shards together gives the same summary without writing a file.
    expect(summarize(readResults(shards))).toMatchObject({ winRate, interval, won, lost, deals, missing: 0 });
  });

  it('refuses overlapping files and the same shard twice', () => {
    const a = shardFile('a', 1, 100, { index: 1, count: 2 });
    const a2 = shardFile('a-again', 1, 100, { index: 1, count: 2 });
    const whole = shardFile('whole', 1, 100, null);
    expect(() => mergeResults([a, a2], { out: fresh('x') })).toThrow(
      `overlapping results: ${a} (deals 1-50) and ${a2} (deals 1-50) both cover deals 1-50 (both are shard 1/2): each deal must come from one file (continue an unfinished file with --resume instead of running it again)`,
    );
    expect(() => mergeResults([a, whole], { out: fresh('x') })).toThrow(/overlapping results: .* both cover deals 1-50/);
    const later = shardFile('later', 90, 20, null);
    expect(() => mergeResults([whole, later], { out: fresh('x') })).toThrow(/both cover deals 90-100/);
  });

  it('refuses shards of one run cut into different numbers of slices', () => {
    const a = shardFile('a', 1, 1000, { index: 1, count: 4 });
    const b = shardFile('b', 1, 1000, { index: 2, count: 3 });
    expect(() => mergeResults([a, b], { out: fresh('x') })).toThrow(
      `inconsistent shards: ${a} is shard 1/4 and ${b} is shard 2/3 of deals 1-1000: shards of one run must all use the same --shard N`,
    );
  });

  it('refuses files of different games, rules or limits, naming the difference', () => {
    const a = shardFile('a', 1, 10, { index: 1, count: 2 });
    const rules = shardFile('r', 1, 10, { index: 2, count: 2 }, { rules: { game: 'canister', ranks: 12 } });
    const limits = shardFile('l', 1, 10, { index: 2, count: 2 }, { limits: { nodeLimit: 5000, timeLimitMs: null, memoryMiB: null } });
    const game = shardFile('g', 1, 10, { index: 2, count: 2 }, { game: 'storehouse' });
    expect(() => mergeResults([a, rules], { out: fresh('x') })).toThrow(`cannot merge ${a} and ${rules}: different rules (ranks 13 vs 12)`);
    expect(() => mergeResults([a, limits], { out: fresh('x') })).toThrow(/different limits \(node limit 1000 vs 5000, time limit none vs none/);
    expect(() => mergeResults([a, game], { out: fresh('x') })).toThrow(/different games \(canister, storehouse\)/);
  });

  it('reports missing shards and unfinished files, and merges what there is', () => {
    const s1 = shardFile('s1', 1, 100, { index: 1, count: 4 });
    const s3 = shardFile('s3', 1, 100, { index: 3, count: 4 }, { skip: [60, 61] });
    const out = fresh('partial');
    const report = mergeResults([s1, s3], { out });
    // Shard 4/4 is missing too: the run is deals 1-100, not a smaller run ending at 75.
    expect(report.gaps).toEqual([{ start: 26, end: 51 }, { start: 76, end: 101 }]);
    expect(report.unfinished).toBe(2);
    expect(report.warnings).toEqual([
      'no file covers deals 26-50 (25 deals): a shard is missing?',
      'no file covers deals 76-100 (25 deals): a shard is missing?',
      `${s3} lacks 2 of its 25 deals (an unfinished run: continue it with --resume ${s3})`,
    ]);
    expect(report.summary).toMatchObject({ deals: 48, start: 1, end: 101, missing: 52 });
    expect(readResults(out).table.size).toBe(48);
  });

  it('counts a run\'s first or last shard missing as a gap, in merge and in reading', () => {
    const s2 = shardFile('m2', 1, 30, { index: 2, count: 3 });
    const s3 = shardFile('m3', 1, 30, { index: 3, count: 3 });
    const report = mergeResults([s2, s3], { out: fresh('no-first') });
    expect(report.gaps).toEqual([{ start: 1, end: 11 }]);
    expect(report.warnings).toEqual(['no file covers deals 1-10 (10 deals): a shard is missing?']);
    expect(report.summary).toMatchObject({ deals: 20, start: 1, end: 31, missing: 10 });
    const s1 = shardFile('m1', 1, 30, { index: 1, count: 3 });
    const read = readResults([s1, s2]);
    expect(read.warnings).toEqual(['no file covers deals 21-30 (10 deals): a shard is missing?']);
    expect(summarize(read)).toMatchObject({ deals: 20, start: 1, end: 31, missing: 10 });
    // All three: no gap.
    expect(readResults([s1, s2, s3]).warnings).toEqual([]);
  });

  it('refuses an output that exists or is an input, before writing anything', () => {
    const a = shardFile('a', 1, 10, null);
    expect(() => mergeResults([a], { out: a })).toThrow(/is also an input/);
    const b = shardFile('b', 11, 10, null);
    expect(() => mergeResults([a, b], { out: b })).toThrow(/is also an input/);
    const bad = fresh('never');
    const c = shardFile('c', 5, 10, null);
    expect(() => mergeResults([a, c], { out: bad })).toThrow(/overlapping/);
    expect(existsSync(bad)).toBe(false);
  });
});
