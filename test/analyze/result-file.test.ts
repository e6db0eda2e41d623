import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeMulti, encode } from '@msgpack/msgpack';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { msgpackItemEnd } from '../../src/analyze/msgpack-scan';
import { CODE_ERROR, CODE_UNKNOWN_TIME, CODE_UNWINNABLE, CODE_WINNABLE } from '../../src/analyze/records';
import { encodeHeader, encodeRecord, ResultWriter, scanResultFile } from '../../src/analyze/result-file';
import { csvLines, readResults, summarize } from '../../src/analyze/results';
import { PatienceError } from '../../src/errors';
import { resultHeader } from '../helpers';

const dir = mkdtempSync(join(tmpdir(), 'patience-results-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;
const fresh = (name = 'run') => join(dir, `${name}-${++counter}.msgpack`);

const header = resultHeader;

/** Deals 1..10: 1-4 won (with solutions), 5-7 lost, 8-9 unknown (time), 10 an error. */
function sampleFile(path = fresh()): { path: string; records: Uint8Array[] } {
  const records: Uint8Array[] = [];
  for (let d = 1; d <= 10; d++) {
    if (d <= 4) records.push(encodeRecord(d, CODE_WINNABLE, 100 * d, 1.5 * d, 2, ['7H waste -> t2', `3C t${d} -> f`]));
    else if (d <= 7) records.push(encodeRecord(d, CODE_UNWINNABLE, 50, 0.25, 0));
    else if (d <= 9) records.push(encodeRecord(d, CODE_UNKNOWN_TIME, 1e6, 10_000, 0));
    else records.push(encodeRecord(d, CODE_ERROR, 0, 0.1, 0, 'TypeError: boom'));
  }
  const writer = ResultWriter.create(path, header());
  writer.write(records.slice(0, 5));
  writer.write(records.slice(5));
  writer.close();
  return { path, records };
}

describe('result files', () => {
  it('read back every record written, details included', () => {
    const { path } = sampleFile();
    const set = readResults(path);
    expect(set.warnings).toEqual([]);
    expect(set.header).toMatchObject({ format: 'patience-solver results', version: 1, game: 'canfield', from: 1, deals: 20, start: 1, end: 21, shard: null });
    expect(set.table.size).toBe(10);
    expect(set.table.record(0)).toEqual({ deal: 1, verdict: 'winnable', nodes: 100, ms: 1.5, solutionLength: 2, solution: ['7H waste -> t2', '3C t1 -> f'] });
    expect(set.table.record(7)).toEqual({ deal: 8, verdict: 'unknown', reason: 'time', nodes: 1e6, ms: 10_000, solutionLength: 0 });
    expect(set.table.record(9)).toEqual({ deal: 10, verdict: 'error', nodes: 0, ms: 0.1, solutionLength: 0, error: 'TypeError: boom' });
    const s = summarize(set);
    expect(s).toMatchObject({ deals: 10, missing: 10, won: 4, lost: 3, unknown: 2, errors: 1, unknownReasons: { time: 2 } });
    expect(s.winRateRange).toEqual([0.4, 0.7]);
    expect(s.winRate).toBeCloseTo(0.55, 12);
    expect(s.slowest[0]).toMatchObject({ deal: 8, verdict: 'unknown', reason: 'time', ms: 10_000 });
    expect(s.errorDeals).toEqual([{ deal: 10, message: 'TypeError: boom' }]);
  });

  it('is a plain MessagePack stream: a header map, then one array per deal ending in its CRC', () => {
    const { path } = sampleFile();
    const items = [...decodeMulti(readFileSync(path))];
    expect(items).toHaveLength(11);
    expect(items[0]).toMatchObject({ format: 'patience-solver results', game: 'canfield', crc: expect.any(Number) });
    expect(Object.keys(items[0] as object).at(-1)).toBe('crc');
    expect(items[6]).toEqual([6, 0, 50, 0.25, 0, expect.any(Number)]);
    expect(items[1]).toEqual([1, 1, 100, 1.5, 2, ['7H waste -> t2', '3C t1 -> f'], expect.any(Number)]);
  });

  it('keeps the whole records of a file cut anywhere inside its last record, and says which record', () => {
    const { path, records } = sampleFile();
    const bytes = readFileSync(path);
    const last = records.at(-1)!.length;
    for (let cut = 1; cut < last; cut++) {
      const torn = fresh('torn');
      writeFileSync(torn, bytes.subarray(0, bytes.length - cut));
      const set = readResults(torn);
      expect(set.table.size).toBe(9);
      expect(set.warnings).toHaveLength(1);
      expect(set.warnings[0]).toMatch(
        new RegExp(`^${torn.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: deal record 10 \\(byte ${bytes.length - last}\\) is truncated: the file ends ${last - cut} bytes into it \\(an interrupted write\\); kept the 9 records before it$`),
      );
    }
  });

  it('stops at a corrupted record, keeps the records before it, and names it', () => {
    const { path, records } = sampleFile();
    const bytes = Buffer.from(readFileSync(path));
    const headerBytes = bytes.length - records.reduce((n, r) => n + r.length, 0);
    const offset6 = headerBytes + records.slice(0, 5).reduce((n, r) => n + r.length, 0);
    // Flip one bit of record 6's node count: still valid MessagePack, caught by the CRC.
    bytes[offset6 + 3]! ^= 0x01;
    const bad = fresh('bad');
    writeFileSync(bad, bytes);
    const set = readResults(bad);
    expect(set.table.size).toBe(5);
    expect(set.warnings[0]).toContain(`deal record 6 (byte ${offset6}) is corrupt: checksum mismatch`);
    expect(set.warnings[0]).toContain(`kept the 5 records before it and ignored the remaining ${bytes.length - offset6} bytes`);
    // Garbage that is not MessagePack at all.
    bytes.fill(0xc1, offset6, offset6 + 4);
    writeFileSync(bad, bytes);
    expect(readResults(bad).warnings[0]).toMatch(/deal record 6 \(byte \d+\) is corrupt: it is not MessagePack/);
  });

  it('refuses a file whose header is missing, damaged or not ours, in one line', () => {
    const empty = fresh('empty');
    writeFileSync(empty, '');
    expect(() => readResults(empty)).toThrow(/empty file: not a result file/);
    const other = fresh('other');
    writeFileSync(other, encode({ hello: 'world' }));
    expect(() => readResults(other)).toThrow(/not a patience-solver result file/);
    const { path } = sampleFile();
    const bytes = Buffer.from(readFileSync(path));
    bytes[20]! ^= 0x20;
    writeFileSync(other, bytes);
    expect(() => readResults(other)).toThrow(PatienceError);
    writeFileSync(other, bytes.subarray(0, 30));
    expect(() => readResults(other)).toThrow(/header is cut off/);
    expect(() => readResults(join(dir, 'nope.msgpack'))).toThrow(/cannot read result file .*nope.msgpack: no such file/);
    const future = fresh('future');
    writeFileSync(future, encodeHeader({ ...header(), version: 9 }));
    expect(() => readResults(future)).toThrow(/written by a newer patience-solver .* result format 9/);
  });

  it('refuses a directory, a device, an impossible run and unusable rules in one line naming the file', () => {
    expect(() => readResults(dir)).toThrow(new PatienceError(`cannot read result file ${dir}: it is a directory`));
    expect(() => readResults('/dev/zero')).toThrow(new PatienceError('cannot read result file /dev/zero: not a regular file'));
    const huge = fresh('huge');
    writeFileSync(huge, encodeHeader({ ...header(), deals: 2 ** 40, end: 2 ** 40 }));
    expect(() => readResults(huge)).toThrow(/: not a usable patience-solver result file: the header has a bad deals \(1099511627776: a run has 1 to 4294967295\)$/);
    const drawZero = fresh('draw-zero');
    writeFileSync(drawZero, encodeHeader({ ...header(), rules: { game: 'canfield', draw: 0 } }));
    expect(() => readResults(drawZero)).toThrow(`${drawZero}: the header's rules are not usable: bad rules option draw: 0 (expected a whole number from 1 to 52)`);
    const emptyShard = fresh('empty-shard');
    writeFileSync(emptyShard, encodeHeader(header({ deals: 2, shard: { index: 5, count: 1000 } })));
    expect(() => readResults(emptyShard)).toThrow(/the header says shard 5\/1000 of a run of 2 deals: some shards would have none$/);
    // Only a shard may hold part of its run: an unsharded header whose slice is not the whole run is forged.
    const forged = fresh('forged');
    writeFileSync(forged, encodeHeader({ ...header(), end: 11 }));
    expect(() => readResults(forged)).toThrow(new PatienceError(`${forged}: not a usable patience-solver result file: the header holds deals 1-10 of a run of deals 1-20 but names no shard`));
    writeFileSync(forged, encodeHeader({ ...header(), start: 5 }));
    expect(() => readResults(forged)).toThrow(/the header holds deals 5-20 of a run of deals 1-20 but names no shard$/);
    const klondike = fresh('klondike');
    writeFileSync(klondike, encodeHeader({ ...header(), game: 'klondike' }));
    expect(() => readResults(klondike)).toThrow(new RegExp(`^${klondike}: the header's rules are not usable: unknown game "klondike"`));
  });

  it('refuses to create a result file without a name, over a directory or over a dangling link', () => {
    expect(() => ResultWriter.create('', header())).toThrow('a result file needs a name (--out FILE)');
    expect(() => ResultWriter.create(dir, header())).toThrow(`${dir} is a directory: give the result file's own name (say ${join(dir, 'run.msgpack')})`);
    const link = fresh('dangling');
    symlinkSync(join(dir, 'no-such-target'), link);
    expect(() => ResultWriter.create(link, header())).toThrow(/already exists/);
  });

  it('carries the files a retry was made from in its header, and refuses a malformed list', () => {
    const retriedFrom = [{ file: 'a.msgpack', limits: { nodeLimit: null, timeLimitMs: 10_000, memoryMiB: 1900 }, kept: 8, retried: 2, retriedMs: 20_000.5 }];
    const path = fresh('retried');
    ResultWriter.create(path, { ...header(), retriedFrom }).close();
    expect(readResults(path).header.retriedFrom).toEqual(retriedFrom);
    expect(summarize(readResults(path)).retriedFrom).toEqual(retriedFrom);
    const bad = fresh('bad-retried');
    writeFileSync(bad, encodeHeader({ ...header(), retriedFrom: [{ ...retriedFrom[0]!, kept: -1 }] }));
    expect(() => readResults(bad)).toThrow(/the header has a bad retriedFrom/);
  });

  it('writes the records given at creation before the file appears under its name', () => {
    const { records } = sampleFile();
    const path = fresh('initial');
    ResultWriter.create(path, header(), (write) => {
      write(records.slice(0, 3));
      write(records.slice(3));
    }).close();
    expect(readResults(path).table.size).toBe(10);
    const failing = fresh('initial-failing');
    expect(() =>
      ResultWriter.create(failing, header(), (write) => {
        write(records.slice(0, 3));
        throw new Error('disk full');
      }),
    ).toThrow(/cannot write result file .*: disk full/);
    expect(() => readResults(failing)).toThrow(/no such file/);
  });

  it('refuses to overwrite an existing file', () => {
    const { path } = sampleFile();
    expect(() => ResultWriter.create(path, header())).toThrow(/already exists: remove it first or give another name \(a winrate run's file is continued with winrate --resume /);
  });

  it('keeps the first of duplicated deals, with a warning', () => {
    const path = fresh('dup');
    const w = ResultWriter.create(path, header());
    w.write([encodeRecord(3, CODE_WINNABLE, 1, 1, 1), encodeRecord(3, CODE_UNWINNABLE, 1, 1, 0), encodeRecord(4, CODE_UNWINNABLE, 1, 1, 0)]);
    w.close();
    const set = readResults(path);
    expect(set.table.size).toBe(2);
    expect(set.table.record(0).verdict).toBe('winnable');
    expect(set.warnings[0]).toMatch(/1 deal recorded more than once \(3\); kept the first record of each/);
    expect(scanResultFile(path).duplicates).toEqual([3]);
  });

  it('reads files larger than its read buffer, records straddling the chunks, and a torn end after them', () => {
    const path = fresh('big');
    const n = 250_000; // about 5 MB: more than one 4 MiB read
    const w = ResultWriter.create(path, header({ deals: n }));
    let batch: Uint8Array[] = [];
    for (let d = 1; d <= n; d++) {
      batch.push(encodeRecord(d, d % 2 ? CODE_WINNABLE : CODE_UNWINNABLE, d * 7, d / 1000, d % 2 ? 50 : 0));
      if (batch.length === 10_000) {
        w.write(batch);
        batch = [];
      }
    }
    w.close();
    let sum = 0;
    const scan = scanResultFile(path, (deal, code, nodes) => (sum += deal + code + nodes));
    expect(scan.records).toBe(n);
    expect(scan.warnings).toEqual([]);
    expect(sum).toBe((8 * n * (n + 1)) / 2 + n / 2);
    const bytes = readFileSync(path);
    writeFileSync(path, bytes.subarray(0, bytes.length - 3));
    const torn = scanResultFile(path);
    expect(torn.records).toBe(n - 1);
    expect(torn.problem).toMatchObject({ kind: 'truncated', record: n });
  });

  it('exports CSV rows in deal order', () => {
    const { path } = sampleFile();
    const lines = [...csvLines(readResults(path))];
    expect(lines[0]).toBe('deal,verdict,reason,nodes,ms,solution_length,solution,error');
    expect(lines[1]).toBe('1,winnable,,100,1.5,2,7H waste -> t2; 3C t1 -> f,');
    expect(lines[8]).toBe('8,unknown,time,1000000,10000,0,,');
    expect(lines[10]).toBe('10,error,,0,0.1,0,,TypeError: boom');
  });
});

describe('msgpackItemEnd', () => {
  it('finds the end of any encoded value, and says truncated for every shorter prefix', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.uint8Array({ maxLength: 4 }), (value, tail) => {
        const bytes = encode(value);
        const withTail = new Uint8Array([...bytes, ...tail]);
        expect(msgpackItemEnd(withTail, 0)).toBe(bytes.length);
        for (const cut of [0, 1, Math.floor(bytes.length / 2), bytes.length - 1]) {
          if (cut < bytes.length) expect(msgpackItemEnd(bytes.subarray(0, cut), 0)).toBe(-1);
        }
      }),
      { seed: 11, numRuns: 300 },
    );
  });
});
