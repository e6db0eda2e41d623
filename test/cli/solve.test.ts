import { describe, expect, it } from 'vitest';
import { expectUserError, runCli } from './run-cli';

// British Canister on 12 cards (3 ranks, 3 piles): small enough that the referee's brute force
// decided these deals when the tests were written; deal 0 is winnable, deal 1 unwinnable.
const SMALL = ['british-canister', '--ranks', '3', '--piles', '3'];
const SMALL_WIN = [...SMALL, '--seed', '0'];
const SMALL_LOSS = [...SMALL, '--seed', '1'];

describe('patience solve', () => {
  it('prints the verdict, the statistics and the numbered solution of a winnable deal, exit 0', async () => {
    const r = await runCli(['solve', ...SMALL_WIN]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [verdict, stats, blank, ...moves] = r.stdout.trimEnd().split('\n');
    expect(verdict).toMatch(/^winnable in \d+ moves$/);
    expect(stats).toMatch(/^nodes \d+ {3}unique states \d+ {3}\d+ ms {3}max depth \d+$/);
    expect(blank).toBe('');
    expect(moves.length).toBe(Number(/\d+/.exec(verdict!)![0]));
    moves.forEach((line, i) => expect(line).toMatch(new RegExp(`^ *${i + 1}\\. \\w\\w t\\d -> (f|t\\d)$`)));
  });

  it('prints a solution that verify replays to a win', async () => {
    const solution = await runCli(['solve', ...SMALL_WIN, '--moves-only']);
    expect(solution.code).toBe(0);
    expect(solution.stdout).toMatch(/^ *1\. /);
    const check = await runCli(['verify', ...SMALL_WIN, '--moves', '-'], { input: solution.stdout });
    expect(check.stdout).toMatch(/^won in \d+ moves\n$/);
  });

  it('warns, one line, of a --memory no machine has, and still solves', async () => {
    const r = await runCli(['solve', ...SMALL_WIN, '--memory', '100000000']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^winnable in \d+ moves\n/);
    expect(r.stderr).toMatch(/^patience: warning: --memory 100000000 MiB is more than this machine's [\d.]+ GiB: a hard deal may be killed by the system for want of memory instead of stopping as unknown\n$/);
    const quiet = await runCli(['solve', ...SMALL_WIN, '--memory', '64']);
    expect(quiet.stderr).toBe('');
  });

  it('says unwinnable, exit 1, when every position was searched', async () => {
    const r = await runCli(['solve', ...SMALL_LOSS]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^unwinnable: every reachable position was searched\nnodes \d+ .*\n$/);
  });

  it('says so when the deal dealt one card at a time proved it unwinnable (rule 13), and --json gives that search', async () => {
    const r = await runCli(['solve', 'canfield-sequences', '--seed', '229']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^unwinnable: even dealing the stock one card at a time with unlimited redeals \(which allows every line of this deal\), every reachable position was searched\nnodes \d+ /);
    const json = await runCli(['solve', 'canfield-sequences', '--seed', '229', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ verdict: 'unwinnable', drawOne: { nodes: expect.any(Number), outcome: 'unwinnable' } });
    // Storehouse: the search with no redeal limit proves it.
    const store = await runCli(['solve', 'storehouse', '--seed', '904', '--json']);
    expect(JSON.parse(store.stdout)).toMatchObject({ verdict: 'unwinnable', drawOne: { nodes: expect.any(Number), outcome: 'unwinnable' } });
  });

  it('says unknown, exit 3, when the smallest --memory fills, not an internal error', async () => {
    // At 1 MiB Canister's best-first run once found no room for its first state and threw.
    const r = await runCli(['solve', 'canister', '--ranks', '9', '--seed', '27', '--memory', '1']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^unknown: the table memory \(1 MiB\) is full before a verdict; a larger --memory may decide it\n/);
  });

  it('says unknown, exit 3, when a node limit stops the search', async () => {
    const r = await runCli(['solve', 'canister', '--seed', '1', '--node-limit', '2000']);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^unknown: the node limit \(2000\) was hit before a verdict; a larger --node-limit may decide it\n/);
  });

  it('says unknown, exit 3, when the time limit stops the search', async () => {
    // Deal 159 is undecided after 120 s; deal 1, used before, is won in under 0.3 s on a quiet machine.
    const r = await runCli(['solve', 'canister', '--seed', '159', '--time-limit', '0.3', '--json']);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({ verdict: 'unknown', reason: 'time', moves: [] });
    const text = await runCli(['solve', 'canister', '--seed', '159', '--time-limit', '0.3']);
    expect(text.code).toBe(3);
    expect(text.stdout).toMatch(/^unknown: the time limit \(0\.3 s\) was hit before a verdict; a larger --time-limit may decide it\n/);
  });

  it('prints one JSON object with --json', async () => {
    const r = await runCli(['solve', ...SMALL_WIN, '--json']);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(json).sort()).toEqual(['elapsedMs', 'maxDepth', 'moves', 'nodes', 'uniqueStates', 'verdict']);
    expect(json.verdict).toBe('winnable');
    expect((json.moves as string[]).every((m) => /^\w\w t\d -> (f|t\d)$/.test(m))).toBe(true);
    const loss = JSON.parse((await runCli(['solve', ...SMALL_LOSS, '--json'])).stdout) as Record<string, unknown>;
    expect(loss).toMatchObject({ verdict: 'unwinnable', moves: [] });
  });

  it('prints the position after each move with --verbose', async () => {
    const r = await runCli(['solve', ...SMALL_WIN, '--verbose']);
    expect(r.code).toBe(0);
    const moves = Number(/^winnable in (\d+) moves/.exec(r.stdout)![1]);
    expect(r.stdout.match(/^ {4}british-canister {3}base A {3}12 cards$/gm)).toHaveLength(moves + 1);
    expect(r.stdout.trimEnd().split('\n').at(-4)).toBe('    foundations  C: AC..3C   D: AD..3D   H: AH..3H   S: AS..3S');
  });

  it('prints a run of three or more deals as one line that keeps the move numbers, but not with --moves-only', async () => {
    const human = await runCli(['solve', 'canfield', '--seed', '1', '--time-limit', '30']);
    const plain = await runCli(['solve', 'canfield', '--seed', '1', '--time-limit', '30', '--moves-only']);
    expect(human.code).toBe(0);
    const expanded: string[] = [];
    let joined = 0;
    for (const line of human.stdout.trimEnd().split('\n').slice(3)) {
      const run = /^ *(\d+)\. deal (\d+) times \(moves (\d+)-(\d+)\)$/.exec(line);
      if (!run) {
        expanded.push(line.trim());
        continue;
      }
      const [first, times, from, to] = run.slice(1).map(Number) as [number, number, number, number];
      expect([from, to - from + 1]).toEqual([first, times]);
      expect(times).toBeGreaterThanOrEqual(3);
      for (let k = from; k <= to; k++) expanded.push(`${k}. deal`);
      joined++;
    }
    expect(joined).toBeGreaterThan(0);
    // The same moves with the same numbers as the plain list (which verify reads), and no two
    // deals left side by side with a third.
    expect(expanded).toEqual(plain.stdout.trimEnd().split('\n').map((l) => l.trim()));
    expect(human.stdout).not.toMatch(/\. deal\n *\d+\. deal\n *\d+\. deal\n/);
  });

  it('solves a position file', async () => {
    const position = (await runCli(['show', ...SMALL_WIN, '--json'])).stdout;
    const r = await runCli(['solve', '--position', '-', '--json'], { input: position });
    expect(JSON.parse(r.stdout)).toMatchObject({ verdict: 'winnable' });
  });

  it('solves a full canfield-relaxed deal with a solution the referee accepts', async () => {
    const solution = await runCli(['solve', 'canfield-relaxed', '--seed', '1', '--moves-only', '--time-limit', '30']);
    expect(solution.code).toBe(0);
    const check = await runCli(['verify', 'canfield-relaxed', '--seed', '1', '--moves', '-'], { input: solution.stdout });
    expect(check.stdout).toMatch(/^won in \d+ moves\n$/);
  });

  it('refuses bad limits', async () => {
    expectUserError(await runCli(['solve', ...SMALL_WIN, '--time-limit', 'soon']), 'bad --time-limit "soon": expected a number above 0');
    expectUserError(await runCli(['solve', ...SMALL_WIN, '--node-limit', '1.5']), 'bad --node-limit "1.5": expected a whole number above 0');
    expectUserError(await runCli(['solve', ...SMALL_WIN, '--memory', '0']), 'bad --memory "0": expected a number above 0');
  });

  it('refuses --json with --verbose', async () => {
    expectUserError(await runCli(['solve', ...SMALL_WIN, '--json', '--verbose']), '--json and --verbose contradict each other: give one of them');
  });
});
