import { afterAll, describe, expect, it } from 'vitest';
import { runCli, scratchDir } from './run-cli';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

// Deal 1 of canfield, pinned: the seeded shuffle and the canfield layout must never change.
const CANFIELD_1 = `canfield   base K   52 cards
foundations  C: -   D: -   H: KH   S: -
reserve (13)  KS QH TD 2S AS JC 8S KD 7D 7H 2H 2C 3D   <- top
t1  AH
t2  4H
t3  8H
t4  AC
stock (34)  next: 4D 6H KC 6S 5S 4S 6C JD 8C TC 9S 5C TS 9C 2D TH JS 6D 5D 3H 3C 9H 3S QS 9D 7S QC 5H 7C QD 4C 8D AD JH
waste (0)  -
redeals used 0 of unlimited, draw 3
`;

// The deck order of canfield deal 1 (reserve, base card, tableau, then the stock in dealing order).
const DECK_1 = 'KS QH TD 2S AS JC 8S KD 7D 7H 2H 2C 3D KH AH 4H 8H AC 4D 6H KC 6S 5S 4S 6C JD 8C TC 9S 5C TS 9C 2D TH JS 6D 5D 3H 3C 9H 3S QS 9D 7S QC 5H 7C QD 4C 8D AD JH';

describe('patience show', () => {
  it('prints canfield deal 1 exactly (golden)', async () => {
    const r = await runCli(['show', 'canfield', '--seed', '1']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(CANFIELD_1);
  });

  it('gives the same layout from the deck order as from the seed', async () => {
    const r = await runCli(['show', 'canfield', '--deck', DECK_1]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(CANFIELD_1);
  });

  it('accepts the game name and cards in any case', async () => {
    const r = await runCli(['show', 'CanField', '--deck', DECK_1.toLowerCase()]);
    expect(r.stdout).toBe(CANFIELD_1);
  });

  it('prints position JSON with --json that reads back through --position', async () => {
    const json = await runCli(['show', 'storehouse', '--seed', '7', '--json']);
    expect(json.code).toBe(0);
    const position = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(position).toMatchObject({ game: 'storehouse', baseRank: '2', redealsUsed: 0 });
    const file = scratch.file('storehouse-7.json', json.stdout);
    const fromFile = await runCli(['show', '--position', file, '--json']);
    expect(fromFile.stdout).toBe(json.stdout);
    const fromStdin = await runCli(['show', '--position', '-', '--json'], { input: json.stdout });
    expect(fromStdin.stdout).toBe(json.stdout);
    const readable = await runCli(['show', 'storehouse', '--seed', '7']);
    const readableFromFile = await runCli(['show', 'storehouse', '--position', file]);
    expect(readableFromFile.stdout).toBe(readable.stdout);
  });

  it('reads a position file that starts with a byte order mark (as Windows Notepad saves it)', async () => {
    const json = (await runCli(['show', 'canfield', '--seed', '7', '--json'])).stdout;
    const file = scratch.file('canfield-7-bom.json', `\uFEFF${json.replace(/\n/g, '\r\n')}`);
    const fromFile = await runCli(['show', '--position', file, '--json']);
    expect(fromFile.stderr).toBe('');
    expect(fromFile.stdout).toBe(json);
    const fromStdin = await runCli(['show', '--position', '-', '--json'], { input: `\uFEFF${json}` });
    expect(fromStdin.stdout).toBe(json);
  });

  it('applies rule overrides on top of the preset', async () => {
    const r = await runCli(['show', 'canfield', '--seed', '1', '--draw', '1', '--redeals', '2']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('redeals used 0 of 2, draw 1');
    const json = JSON.parse((await runCli(['show', 'canfield', '--seed', '1', '--draw', '1', '--json'])).stdout) as { rules?: unknown };
    expect(json.rules).toEqual({ draw: 1 });
  });

  it('applies rule overrides on top of a position file', async () => {
    const json = (await runCli(['show', 'canfield', '--seed', '1', '--json'])).stdout;
    const r = await runCli(['show', '--position', '-', '--draw', '1', '--redeals', 'unlimited'], { input: json });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('redeals used 0 of unlimited, draw 1');
  });

  it('deals small decks with --ranks', async () => {
    const r = await runCli(['show', 'canister', '--seed', '3', '--ranks', '2', '--json']);
    expect(r.code).toBe(0);
    const p = JSON.parse(r.stdout) as { tableau: string[][]; rules: unknown };
    expect(p.rules).toEqual({ ranks: 2 });
    expect(p.tableau.flat()).toHaveLength(8);
  });

  it('takes every rules option as a flag', async () => {
    const r = await runCli([
      'show', 'canfield', '--seed', '2', '--json',
      '--build', 'any-suit', '--move', 'runs', '--spaces', 'any', '--base', '5', '--no-wrap',
      '--foundation-to-tableau', '--reserve', '10', '--piles', '6', '--pile-cards', '2',
    ]);
    expect(r.stderr).toBe('');
    const p = JSON.parse(r.stdout) as { rules: unknown; baseRank: string; reserve: string[]; tableau: string[][] };
    expect(p.rules).toEqual({ build: 'any-suit', move: 'runs', spaces: 'any', base: '5', wrap: false, foundationToTableau: true, reserve: 10, piles: 6, pileCards: 2 });
    expect(p.baseRank).toBe('5');
    expect(p.reserve).toHaveLength(10);
    expect(p.tableau.map((t) => t.length)).toEqual([2, 2, 2, 2, 2, 2]);
  });
});

describe('--after: the position a player reached (show, solve, verify)', () => {
  // Deal 1 of canfield after two deals and AH home (the reserve's 3D fills t1 at once).
  const PLAYED = 'deal\ndeal\nAH t1 -> f\n';

  it('show prints the position after the moves', async () => {
    const r = await runCli(['show', 'canfield', '--seed', '1', '--after', scratch.file('played.txt', PLAYED)]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('foundations  C: -   D: -   H: KH AH   S: -');
    expect(r.stdout).toContain('reserve (12)');
    expect(r.stdout).toMatch(/^t1 {2}3D$/m);
    expect(r.stdout).toContain('waste (6)  4D 6H KC 6S 5S 4S   <- top');
  });

  it('solve answers from there, and its moves win from there (verify --after)', async () => {
    const played = scratch.file('played-2.txt', PLAYED);
    const solved = await runCli(['solve', 'canfield', '--seed', '1', '--after', played, '--moves-only']);
    expect(solved.code).toBe(0);
    const rest = scratch.file('rest.txt', solved.stdout);
    const checked = await runCli(['verify', 'canfield', '--seed', '1', '--after', played, '--moves', rest]);
    expect(checked.stdout).toMatch(/^won in \d+ moves$/m);
    // The whole game, the player's moves then the solver's, wins from the deal itself.
    const whole = scratch.file('whole.txt', PLAYED + solved.stdout);
    expect((await runCli(['verify', 'canfield', '--seed', '1', '--moves', whole])).stdout).toMatch(/^won in \d+ moves$/m);
  });

  it('reads the moves from standard input', async () => {
    const r = await runCli(['show', 'canfield', '--seed', '1', '--after', '-'], { input: PLAYED });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('H: KH AH');
  });

  it('refuses an illegal or unreadable move in one line that names it, and two readers of stdin', async () => {
    const illegal = await runCli(['solve', 'canfield', '--seed', '1', '--after', '-'], { input: 'deal\nAS t1 -> t2\n' });
    expect(illegal.code).toBe(2);
    expect(illegal.stderr).toBe('patience: --after stdin: move 2 (AS t1 -> t2) is illegal: the top card of tableau 1 is AH, not AS\n');
    const bad = await runCli(['show', 'canfield', '--seed', '1', '--after', '-'], { input: 'deal\nfoo\n' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^patience: --after stdin: .*line 2.*"foo".*\n$/);
    const missing = await runCli(['show', 'canfield', '--seed', '1', '--after', scratch.dir + '/nothing.txt']);
    expect(missing.code).toBe(2);
    expect(missing.stderr.split('\n')).toHaveLength(2);
    const twice = await runCli(['verify', 'canfield', '--seed', '1', '--after', '-', '--moves', '-'], { input: 'deal\n' });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toBe('patience: --after and --moves cannot both read standard input\n');
  });
});
