import { afterAll, describe, expect, it } from 'vitest';
import { expectUserError, runCli, scratchDir } from './run-cli';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

// Every way a user can get the input wrong: exit 2, one line on stderr, the message below, no stack.
describe('bad input gives one clear line and exit 2', () => {
  it('unknown game', async () => {
    expectUserError(await runCli(['show', 'klondike', '--seed', '1']), /^patience: unknown game "klondike": expected one of canister, .*canfield-sequences\n$/);
  });

  it('bad card in a deck', async () => {
    expectUserError(await runCli(['show', 'canfield', '--deck', 'AS 2S ZZ']), 'bad card "ZZ": expected rank then suit, e.g. TD, 10d, AS');
  });

  it('duplicate card in a deck', async () => {
    expectUserError(await runCli(['show', 'canfield', '--deck', 'AS 2S AS']), 'duplicate card AS in the deck');
  });

  it('a deck missing cards', async () => {
    expectUserError(await runCli(['show', 'canfield', '--deck', 'AS 2S']), /^patience: the deck is missing 50 card\(s\): /);
  });

  it('bad card in a position file', async () => {
    const file = scratch.file('bad-card.json', JSON.stringify({ game: 'canister', tableau: [['XX']] }));
    expectUserError(await runCli(['show', '--position', file]), `${file}: position: bad card "XX" at tableau[0][0]`);
  });

  it('duplicate card in a position file', async () => {
    const shown = JSON.parse((await runCli(['show', 'canister', '--seed', '1', '--json'])).stdout) as { tableau: string[][] };
    shown.tableau[0]![0] = shown.tableau[1]![0]!;
    const file = scratch.file('duplicate.json', JSON.stringify(shown));
    expectUserError(await runCli(['show', '--position', file]), /: position: duplicate card \w\w \(tableau 1 and tableau 2\)\n$/);
  });

  it('malformed JSON', async () => {
    const file = scratch.file('malformed.json', '{"game": "canfield",');
    expectUserError(await runCli(['show', '--position', file]), new RegExp(`^patience: ${file}: position: malformed JSON \\(.+\\)\\n$`));
  });

  it('malformed JSON on standard input', async () => {
    expectUserError(await runCli(['show', '--position', '-'], { input: 'not json' }), /^patience: stdin: position: malformed JSON /);
  });

  it('missing position file', async () => {
    expectUserError(await runCli(['show', '--position', 'no/such/file.json']), 'cannot read position file no/such/file.json: no such file');
  });

  it('missing moves file', async () => {
    expectUserError(await runCli(['verify', 'canfield', '--seed', '1', '--moves', 'nowhere.txt']), 'cannot read moves file nowhere.txt: no such file');
  });

  it('contradictory input options: --seed with --deck', async () => {
    expectUserError(
      await runCli(['show', 'canfield', '--seed', '1', '--deck', 'AS']),
      '--seed and --deck contradict each other: give exactly one of --seed, --deck, --position',
    );
  });

  it('contradictory input options: --seed with --position', async () => {
    expectUserError(await runCli(['show', 'canfield', '--seed', '1', '--position', 'p.json']), /^patience: --seed and --position contradict each other/);
  });

  it('a flag given twice', async () => {
    expectUserError(await runCli(['show', 'canfield', '--seed', '1', '--seed', '2']), '--seed is given more than once (see patience --help)');
  });

  it('a game that contradicts the position file', async () => {
    const json = (await runCli(['show', 'canfield', '--seed', '1', '--json'])).stdout;
    expectUserError(await runCli(['show', 'storehouse', '--position', '-'], { input: json }), 'stdin: the game "storehouse" contradicts the position\'s game "canfield"');
  });

  it('no deal at all', async () => {
    expectUserError(await runCli(['show', 'canfield']), /^patience: no deal given: use <game> --seed N/);
  });

  it('a seed without a game', async () => {
    expectUserError(await runCli(['show', '--seed', '4']), /^patience: --seed needs a game before it, one of: canister, /);
  });

  it('a seed that is not a deal number', async () => {
    expectUserError(await runCli(['show', 'canfield', '--seed', '-3']), 'bad --seed "-3": expected a deal number, a whole number from 0 to 2^53-1');
    expectUserError(await runCli(['show', 'canfield', '--seed', '9007199254740992']), /^patience: bad --seed "9007199254740992"/);
  });

  it('bad override value', async () => {
    expectUserError(await runCli(['show', 'canfield', '--seed', '1', '--draw', 'three']), 'bad rules option draw: "three" (expected a whole number from 1 to 52)');
    expectUserError(await runCli(['show', 'canfield', '--seed', '1', '--redeals', 'lots']), /^patience: bad rules option redeals: "lots"/);
    expectUserError(await runCli(['show', 'canfield', '--seed', '1', '--build', 'zigzag']), 'bad rules option build: "zigzag" (expected one of any-suit, alternate-colors, same-suit)');
    expectUserError(await runCli(['show', 'canfield', '--seed', '1', '--base', 'Z']), /^patience: bad rules option base: "Z"/);
  });

  it('contradictory rule options', async () => {
    expectUserError(
      await runCli(['show', 'canister', '--seed', '1', '--draw', '3']),
      'bad rules option draw: canister deals every card to the tableau, so there is no stock to draw from',
    );
    expectUserError(await runCli(['show', 'canfield', '--seed', '1', '--base', 'dealt', '--bases-out']), 'bad rules: basesOut needs a fixed base rank, not "dealt"');
    expectUserError(await runCli(['show', 'canfield', '--seed', '1', '--reserve', '40', '--piles', '8', '--pile-cards', '2']), /^patience: bad rules: the layout .* needs more than the 52 cards/);
  });

  it('unknown command', async () => {
    expectUserError(await runCli(['slove', 'canfield']), /^patience: unknown command "slove": expected one of games, show, verify.* \(see patience --help\)\n$/);
  });

  it('no command', async () => {
    expectUserError(await runCli([]), /^patience: give a command: games, show, verify/);
  });

  it('unknown flag', async () => {
    expectUserError(await runCli(['show', 'canfield', '--seed', '1', '--sede', '2']), 'Unknown argument: sede (see patience --help)');
  });

  it('a flag without its value', async () => {
    expectUserError(await runCli(['show', 'canfield', '--seed']), 'Not enough arguments following: seed (see patience --help)');
  });

  it('help and version are not errors', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/patience show \[game\]/);
    const version = await runCli(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
