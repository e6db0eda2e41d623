import { describe, expect, it } from 'vitest';
import { expectUserError, runCli } from './run-cli';

const GAMES = ['canister', 'american-canister', 'british-canister', 'storehouse', 'canfield', 'canfield-relaxed', 'canfield-sequences'];

describe('patience games', () => {
  it('lists every preset with a one-line description', async () => {
    const r = await runCli(['games']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.map((l) => l.split(/\s+/)[0])).toEqual(GAMES);
    for (const line of lines) expect(line).toMatch(/^\S+\s{2,}\S.{10,}$/);
  });

  it('lists the presets as JSON with --json', async () => {
    const r = await runCli(['games', '--json']);
    expect(r.code).toBe(0);
    const list = JSON.parse(r.stdout) as { name: string; description: string }[];
    expect(list.map((g) => g.name)).toEqual(GAMES);
  });

  it('prints the full rules of one game as JSON', async () => {
    const r = await runCli(['games', 'canfield']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      game: 'canfield',
      ranks: 13,
      build: 'alternate-colors',
      move: 'whole-pile',
      spaces: 'auto-reserve-then-waste',
      draw: 3,
      redeals: 'unlimited',
      base: 'dealt',
      basesOut: false,
      wrap: true,
      foundationToTableau: false,
      reserve: 13,
      piles: 4,
      pileCards: 1,
    });
  });

  it('prints the rules of storehouse with its base rank as text', async () => {
    const r = await runCli(['games', 'storehouse']);
    expect(JSON.parse(r.stdout)).toMatchObject({ game: 'storehouse', base: '2', redeals: 2, basesOut: true });
  });

  it('refuses an unknown game in one line', async () => {
    expectUserError(await runCli(['games', 'klondike']), /^patience: unknown game "klondike": expected one of canister, /);
  });
});
