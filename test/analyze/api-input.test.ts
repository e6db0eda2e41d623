/**
 * The analyze module's public entry points refuse bad arguments with a one-line PatienceError naming
 * the argument, instead of a TypeError or RangeError from inside or a nonsense result (findings of an
 * adversarial sweep of the library's API).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CODE_ERROR, CODE_UNKNOWN_TIME, CODE_UNWINNABLE, CODE_WINNABLE, DealTable, type DealRecord } from '../../src/analyze/records';
import { encodeRecord, ResultWriter, scanResultFile } from '../../src/analyze/result-file';
import { csvLines, planMerge, readResults, type ResultSet, summarize } from '../../src/analyze/results';
import { type Shard, shardFromEnv, shardSlice } from '../../src/analyze/shards';
import { formatPercent, percentDecimals } from '../../src/analyze/summary';
import { expectError, resultHeader } from '../helpers';

const dir = mkdtempSync(join(tmpdir(), 'patience-api-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A result file of deals 1..4 of canfield: 1 won, 2 lost, 3 unknown (time), 4 an error. */
function sampleFile(name: string): string {
  const path = join(dir, `${name}.msgpack`);
  const header = resultHeader({ deals: 4, saveSolutions: false });
  const writer = ResultWriter.create(path, header);
  writer.write([
    encodeRecord(1, CODE_WINNABLE, 10, 1, 3),
    encodeRecord(2, CODE_UNWINNABLE, 20, 2, 0),
    encodeRecord(3, CODE_UNKNOWN_TIME, 30, 3, 0),
    encodeRecord(4, CODE_ERROR, 0, 0.5, 0, 'boom'),
  ]);
  writer.close();
  return path;
}

const bad = <T>(v: unknown): T => v as T;

describe('formatPercent and percentDecimals', () => {
  it('refuses decimals that toFixed would throw on, and a fraction that is not a finite number', () => {
    expectError(() => formatPercent(0.5, -1), 'formatPercent: bad decimals -1: expected a whole number from 0 to 100');
    expectError(() => formatPercent(0.5, 101), 'bad decimals 101');
    expectError(() => formatPercent(0.5, 1.5), 'bad decimals 1.5');
    expectError(() => formatPercent(NaN), 'formatPercent: bad fraction NaN: expected a finite number');
    expectError(() => formatPercent(bad('0.5')), 'bad fraction "0.5"');
    expect(formatPercent(0.5)).toBe('50.00%');
    expect(formatPercent(0.71245, 0)).toBe('71%');
  });

  it('percentDecimals refuses anything but [low, high]', () => {
    expectError(() => percentDecimals(bad(null)), 'percentDecimals: bad interval null: expected [low, high]');
    expectError(() => percentDecimals([0.6, 0.4]), 'bad interval [0.6, 0.4]');
    expectError(() => percentDecimals([NaN, NaN]), 'bad interval [NaN, NaN]');
    expect(percentDecimals([0.5, 0.5])).toBe(2);
    expect(percentDecimals([0.7, 0.72])).toBe(1);
  });
});

describe('DealTable', () => {
  it('record(i) refuses a row that is not a whole number inside the table', () => {
    const t = new DealTable();
    expectError(() => t.record(0), 'DealTable.record: bad row 0: the table is empty');
    t.add(7, CODE_UNWINNABLE, 1, 1, 0);
    expectError(() => t.record(-1), 'DealTable.record: bad row -1: expected a whole number from 0 to 0');
    expectError(() => t.record(0.5), 'bad row 0.5');
    expectError(() => t.record(1), 'bad row 1');
    expect(t.record(0)).toEqual({ deal: 7, verdict: 'unwinnable', nodes: 1, ms: 1, solutionLength: 0 });
  });

  it('addRecord refuses an unknown verdict or reason and details that do not fit the verdict', () => {
    const t = new DealTable();
    const r = (over: Partial<Record<keyof DealRecord, unknown>>): DealRecord => ({ deal: 5, verdict: 'unwinnable', nodes: 0, ms: 0, solutionLength: 0, ...over }) as DealRecord;
    expectError(() => t.addRecord(r({ verdict: 'bogus' })), 'DealTable.addRecord: bad verdict "bogus" for deal 5: expected winnable, unwinnable, unknown or error');
    expectError(() => t.addRecord(bad(null)), 'DealTable.addRecord needs a DealRecord, not null');
    expectError(() => t.addRecord(r({ verdict: 'unknown', reason: 'boredom' })), 'bad reason "boredom"');
    expectError(() => t.addRecord(r({ verdict: 'winnable', reason: 'time' })), 'bad reason "time"');
    expectError(() => t.addRecord(r({ verdict: 'error', error: 42 })), 'bad error 42');
    expectError(() => t.addRecord(r({ verdict: 'winnable', solutionLength: 1, solution: [1] })), 'bad solution an array');
    expectError(() => t.addRecord(r({ solutionLength: 3 })), 'DealTable.add: bad solutionLength 3 for deal 5');
    expectError(() => t.addRecord(r({ deal: 'x' })), 'DealTable.add: bad deal "x"');
    expect(t.size).toBe(0);
    const kept: DealRecord[] = [
      { deal: 1, verdict: 'winnable', nodes: 3, ms: 0.5, solutionLength: 2, solution: ['a', 'b'] },
      { deal: 2, verdict: 'unknown', reason: 'memory', nodes: 9, ms: 2, solutionLength: 0 },
      { deal: 3, verdict: 'error', nodes: 0, ms: 0, solutionLength: 0, error: 'boom' },
    ];
    for (const k of kept) t.addRecord(k);
    expect([...t]).toEqual(kept);
  });

  it('add refuses columns a result file would refuse (it stores them in typed arrays)', () => {
    const t = new DealTable();
    expectError(() => t.add(NaN, CODE_WINNABLE, 1, 1, 0), 'DealTable.add: bad deal NaN');
    expectError(() => t.add(-1, CODE_WINNABLE, 1, 1, 0), 'bad deal -1');
    expectError(() => t.add(1, 99, 1, 1, 0), 'DealTable.add: bad code 99 for deal 1: expected a verdict code from 0 to 6');
    expectError(() => t.add(1, CODE_WINNABLE, -1, 1, 0), 'bad nodes -1');
    expectError(() => t.add(1, CODE_WINNABLE, 1, Infinity, 0), 'bad ms Infinity');
    expectError(() => t.add(1, CODE_WINNABLE, 1, NaN, 0), 'bad ms NaN');
    expectError(() => t.add(1, CODE_WINNABLE, 1, 1, -2), 'bad solutionLength -2');
    expect(t.size).toBe(0);
  });
});

describe('shards', () => {
  it('shardSlice refuses a shard outside its count and deal numbers that are not whole', () => {
    expectError(() => shardSlice(1, 10, { index: 5, count: 2 }), 'bad shard 5/2: the shard number must be from 1 to 2');
    expectError(() => shardSlice(1, 10, { index: 1, count: 0 }), 'bad shard 1/0: the number of shards');
    expectError(() => shardSlice(1, 10, bad<Shard>('1/2')), 'shardSlice: bad shard "1/2": expected { index, count } or null');
    expectError(() => shardSlice(1, -10, null), 'shardSlice: bad deals -10');
    expectError(() => shardSlice(NaN, 10, null), 'shardSlice: bad from NaN');
    expectError(() => shardSlice(Number.MAX_SAFE_INTEGER, 2, null), 'go past the last deal number');
    // The last deal number itself is a deal.
    expect(shardSlice(Number.MAX_SAFE_INTEGER, 1, null)).toEqual({ start: Number.MAX_SAFE_INTEGER, end: Number.MAX_SAFE_INTEGER + 1 });
    expect(shardSlice(1, 10, { index: 2, count: 2 })).toEqual({ start: 6, end: 11 });
  });

  it('shardFromEnv refuses an environment that is not an object', () => {
    expectError(() => shardFromEnv(2, bad(null)), 'shardFromEnv: bad env null: expected an object of environment variables');
    expectError(() => shardFromEnv(2, bad('x')), 'bad env "x"');
    expect(shardFromEnv(2, { PATIENCE_SHARD_INDEX: '1' })).toEqual({ index: 2, count: 2 });
  });
});

describe('result sets and scans', () => {
  const path = sampleFile('sample');

  it('summarize and csvLines refuse anything but a result set, csvLines at the call', () => {
    expectError(() => summarize(bad(null)), 'summarize needs a result set (what readResults returns), not null');
    expectError(() => summarize(bad({})), "summarize: the result set's table is undefined, not a DealTable");
    expectError(() => summarize(bad({ table: new DealTable() })), "summarize: the result set's header is undefined");
    expectError(() => csvLines(bad(null)), 'csvLines needs a result set');
    expectError(() => csvLines(bad({})), "csvLines: the result set's table");
    const set: ResultSet = readResults(path);
    expect(summarize(set)).toMatchObject({ deals: 4, won: 1, lost: 1, unknown: 1, errors: 1 });
    expect([...csvLines(set)]).toHaveLength(5);
  });

  it('planMerge refuses anything but a list of { path, scan }', () => {
    expectError(() => planMerge(bad(null)), 'planMerge needs a list of { path, scan }');
    expectError(() => planMerge(bad([5])), 'planMerge: bad files[0]: expected { path, scan }, not 5');
    expectError(() => planMerge(bad([{}])), 'planMerge: bad files[0]: its path is undefined, not a file name');
    expectError(() => planMerge(bad([{}, {}])), 'planMerge: bad files[0]');
    expectError(() => planMerge(bad([{ path: 'x', scan: {} }])), 'planMerge: bad files[0]: its scan lacks records or warnings');
    const scan = scanResultFile(path);
    expectError(() => planMerge(bad([{ path, scan }, { path: 'y', scan: { ...scan, header: { ...scan.header, limits: null } } }])), "planMerge: bad files[1]: its scan's header lacks the game, rules or limits");
    expect(planMerge([{ path, scan }]).unfinished).toBe(0);
  });

  it('scanResultFile refuses a visitor or onHeader that is not a function', () => {
    expectError(() => scanResultFile(path, bad('notfn')), 'scanResultFile: bad visit "notfn": expected a function');
    expectError(() => scanResultFile(path, undefined, bad({ onHeader: 5 })), 'scanResultFile: bad onHeader 5: expected a function');
    expectError(() => scanResultFile(path, undefined, bad(null)), 'scanResultFile: bad options null');
    expectError(() => scanResultFile(bad(42)), 'scanResultFile needs a result file name, not 42');
    expectError(() => readResults(path, bad([])), 'readResults: options must be an object');
    let deals = 0;
    let game = '';
    scanResultFile(path, () => deals++, { onHeader: (h) => (game = h.game) });
    expect([deals, game]).toEqual([4, 'canfield']);
  });
});
