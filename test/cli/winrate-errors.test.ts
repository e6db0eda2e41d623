import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * A win-rate run in which solving some deal throws (a bug) goes on with the other deals, names the
 * deal in its summary, and then exits with the internal-error code 4 and one line on stderr, so that
 * a script never takes the figure as clean. No real deal throws, so the library's test fault makes
 * one: the CLI's `winRate` is the real one with `testFaults` added.
 */
vi.mock('../../src/index', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/index')>();
  return {
    ...real,
    winRate: (options: Parameters<typeof real.winRate>[0], callbacks: Parameters<typeof real.winRate>[1]) =>
      real.winRate({ ...options, testFaults: { throwOn: [3] } }, callbacks),
  };
});

const { main } = await import('../../src/cli/main');

afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

async function runMain(argv: string[]): Promise<{ code: number | undefined; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  await main(argv);
  const code = process.exitCode === undefined ? undefined : Number(process.exitCode);
  vi.restoreAllMocks();
  return { code, stdout, stderr };
}

describe('winrate with a deal that throws', () => {
  it('exits 4 with one line on stderr, after a summary that names the deal', async () => {
    const r = await runMain(['winrate', 'storehouse', '--deals', '6', '--node-limit', '20000', '--workers', '0', '-q']);
    expect(r.stdout).toMatch(/errors +1 +\(solving threw: a bug; deals 3\)/);
    expect(r.stdout).toMatch(/won +\d+/);
    expect(r.stderr).toBe("patience: internal error: solving threw on 1 deal(s); the summary counts them undecided, and `patience report FILE --csv` shows each message\n");
    expect(r.code).toBe(4);
  });

  it('exits 0 when no deal throws (the same run without the fault is clean)', async () => {
    const real = await vi.importActual<typeof import('../../src/index')>('../../src/index');
    const clean = await real.winRate({ game: 'storehouse', deals: 6, nodeLimit: 20_000, workers: 0 });
    expect(clean.errors).toBe(0);
  });
});
