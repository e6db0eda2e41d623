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
