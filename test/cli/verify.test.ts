import { afterAll, describe, expect, it } from 'vitest';
import { expectUserError, runCli, scratchDir } from './run-cli';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

// Canister with one rank per suit: the four aces, one on each of piles 1-4. Four moves win.
const TINY = ['canister', '--ranks', '1', '--seed', '5'];
const TINY_WIN = '# the four aces home\n1. t1 -> f\n2. t2 -> f\n\n3. t3 -> f\n4. t4 -> f\n';

describe('patience verify', () => {
  it('says won, exit 0, for a winning move list', async () => {
    const r = await runCli(['verify', ...TINY, '--moves', scratch.file('win.txt', TINY_WIN)]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('won in 4 moves\n');
    expect(r.code).toBe(0);
  });

  it('reads the moves from standard input with --moves -', async () => {
    const r = await runCli(['verify', ...TINY, '--moves', '-'], { input: TINY_WIN });
    expect(r.stdout).toBe('won in 4 moves\n');
    expect(r.code).toBe(0);
  });

  it('reads the deal from a position file', async () => {
    const position = scratch.file('tiny.json', (await runCli(['show', ...TINY, '--json'])).stdout);
    const r = await runCli(['verify', '--position', position, '--moves', '-'], { input: TINY_WIN });
    expect(r.stdout).toBe('won in 4 moves\n');
  });

  it('says not won, exit 1, for legal moves that stop short', async () => {
    const r = await runCli(['verify', ...TINY, '--moves', '-'], { input: 't1 -> f\nt2 -> f\n' });
    expect(r.stdout).toBe('not won after 2 moves\n');
    expect(r.code).toBe(1);
  });

  it('names the first illegal move and why, exit 2', async () => {
    const r = await runCli(['verify', 'canfield', '--seed', '1', '--moves', '-'], { input: 'deal\nAS t1 -> t2\ndeal\n' });
    expect(r.stdout).toBe('illegal at move 2: AS t1 -> t2: the top card of tableau 1 is AH, not AS\n');
    expect(r.code).toBe(2);
  });

  it('prints one JSON object with --json', async () => {
    const r = await runCli(['verify', 'canfield', '--seed', '1', '--moves', '-', '--json'], { input: 'deal\nAS t1 -> t2\n' });
    expect(JSON.parse(r.stdout)).toEqual({
      result: 'illegal',
      moves: 2,
      movesApplied: 1,
      failedAt: 2,
      move: 'AS t1 -> t2',
      reason: 'the top card of tableau 1 is AH, not AS',
    });
    const won = await runCli(['verify', ...TINY, '--moves', '-', '--json'], { input: TINY_WIN });
    expect(JSON.parse(won.stdout)).toEqual({ result: 'won', moves: 4, movesApplied: 4 });
  });

  it('refuses a move it cannot read, naming the file and line', async () => {
    const file = scratch.file('garbled.txt', 'deal\n\nfly away\n');
    expectUserError(
      await runCli(['verify', 'canfield', '--seed', '1', '--moves', file]),
      `${file}: moves line 3: bad move "fly away": expected deal, redeal or CARD FROM -> TO, e.g. 7H waste -> t2`,
    );
  });

  it('needs --moves', async () => {
    expectUserError(await runCli(['verify', 'canfield', '--seed', '1']), 'Missing required argument: moves (see patience --help)');
  });

  it('refuses to read both the position and the moves from standard input', async () => {
    expectUserError(await runCli(['verify', '--position', '-', '--moves', '-']), '--position and --moves cannot both read standard input');
  });
});
