import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, expectUserError, runCli, scratchDir } from './run-cli';

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

// Found by an adversarial sweep of the CLI (session 26): each of these once ran on quietly, hung,
// or ended in a stack trace.
describe('flags and files that once slipped through', () => {
  it('an on/off flag given a value, or with its --no- form', async () => {
    expectUserError(await runCli(['show', 'canfield', '--seed', '1', '--base', 'A', '--bases-out=1']), '--bases-out is on or off and takes no value (not "=1") (see patience --help)');
    expectUserError(await runCli(['solve', 'canfield', '--seed', '1', '--json=yes']), '--json is on or off and takes no value (not "=yes") (see patience --help)');
    expectUserError(await runCli(['show', 'canfield', '--seed', '1', '--wrap', '--no-wrap']), '--wrap and --no-wrap contradict each other (see patience --help)');
    expectUserError(await runCli(['show', 'canfield', '--seed', '1', '--no-wrap=true']), '--no-wrap takes no value (not "=true"): give --no-wrap alone, or --wrap=true or --wrap=false (see patience --help)');
    expectUserError(await runCli(['solve', 'canfield', '--seed', '1', '--no-json=false']), '--no-json takes no value (not "=false"): give --no-json alone, or --json=true or --json=false (see patience --help)');
    const on = await runCli(['show', 'canfield', '--seed', '1', '--base', 'A', '--bases-out=true']);
    expect(on.code).toBe(0);
    expect(on.stdout).toMatch(/foundations {2}C: AC {3}D: AD {3}H: AH {3}S: AS/);
  });

  it('any spelling of a flag: camelCase, short aliases, and the --no- form of a value flag', async () => {
    expectUserError(await runCli(['show', 'canfield', '--seed', '1', '--base', 'A', '--basesOut=1']), '--basesOut is on or off and takes no value (not "=1") (see patience --help)');
    expectUserError(await runCli(['show', 'canfield', '--seed', '1', '--base', 'A', '--basesOut', '--no-bases-out']), '--basesOut and --no-bases-out contradict each other (see patience --help)');
    expectUserError(await runCli(['solve', 'canister', '--seed', '3', '--ranks', '3', '--piles', '4', '-vv']), '-v is given more than once (see patience --help)');
    expectUserError(await runCli(['solve', 'canister', '--seed', '3', '--ranks', '3', '--piles', '4', '-v', '--verbose']), '--verbose is given more than once (as -v and --verbose) (see patience --help)');
    expectUserError(await runCli(['solve', 'canister', '--seed', '3', '--ranks', '3', '--piles', '4', '-v=1']), '-v is on or off and takes no value (not "=1") (see patience --help)');
    expectUserError(await runCli(['show', 'canfield', '--no-seed']), '--seed takes a value and has no --no- form (leave it out instead) (see patience --help)');
    expectUserError(await runCli(['winrate', 'canfield', '--deals', '3', '--no-workers']), '--workers takes a value and has no --no- form (leave it out instead) (see patience --help)');
    expectUserError(await runCli(['solve', 'canfield', '--seed', '1', '--memory', '1e-9']), 'bad --memory "1e-9": expected MiB, at least 1');
    const verbose = await runCli(['solve', 'canister', '--seed', '3', '--ranks', '3', '--piles', '4', '-v']);
    expect(verbose.stderr).toBe('');
    const last = await runCli(['winrate', 'canfield', '--deals', '1', '--from', '9007199254740991', '--node-limit', '10', '--workers', '0']);
    expect(last.stderr).toBe('');
    expect(last.stdout).toMatch(/^canfield: 1 deal of deal 9007199254740991, node limit 10/);
  });

  it('options that contradict each other or would be dropped', async () => {
    expectUserError(await runCli(['solve', 'canister', '--seed', '3', '--ranks', '3', '--piles', '4', '--verbose', '--moves-only']), '--verbose and --moves-only contradict each other: give one of them');
    expectUserError(await runCli(['solve', 'canfield', '--seed', '1', '--', 'extra']), 'unexpected argument "extra" (see patience --help)');
    expectUserError(await runCli(['winrate', 'canfield', '--deals', '5', '--node-limit', '100', '--save-solutions']), '--save-solutions keeps the winning moves in the result file: give one with --out FILE');
    expectUserError(await runCli(['winrate', 'canfield', '--deals', '20', '--node-limit', '100', '--shard', '21/21']), '21 shards of 20 deals leave some with no deal: use at most 20 shards');
    expectUserError(await runCli(['winrate', 'canfield', '--deals', '20', '--workers', '100000']), 'bad worker count 100000: expected a whole number from 0 to 256 (0 or 1: the main thread)');
  });

  it('what a message quotes stays one short line of plain text', async () => {
    expectUserError(await runCli(['show', 'kl\u001b[31mondike', '--seed', '1']), /^patience: unknown game "kl\\x1b\[31mondike": expected one of /);
    const long = await runCli(['show', 'canfield', '--deck', 'x'.repeat(100_000)]);
    expectUserError(long, /^patience: bad card "x{40}\.\.\.": expected rank then suit, e\.g\. TD, 10d, AS\n$/);
    expect(long.stderr.length).toBeLessThan(600);
    expectUserError(await runCli(['show', 'canfield', '--seed', '1', '--draw', '9'.repeat(30)]), `bad rules option draw: "${'9'.repeat(30)}" (expected a whole number from 1 to 52)`);
    expectUserError(await runCli(['winrate', 'canfield', '--deals', '2', '--node-limit', '10', '--out', '-']), 'a result file is written to a named file, not to standard output: give --out FILE');
  });

  it('on/off flags that cannot be on together, but may be with the other one off', async () => {
    expectUserError(await runCli(['winrate', 'british-canister', '--deals', '2', '--quiet', '--progress']), '--quiet and --progress contradict each other: give one of them');
    const quiet = await runCli(['solve', 'canister', '--seed', '3', '--ranks', '3', '--piles', '4', '--json', '--no-verbose']);
    expect(quiet.stderr).toBe('');
    expect(JSON.parse(quiet.stdout).verdict).toBe('winnable');
  });

  it('report of standard input, and merge onto a file that exists, say what to do', async () => {
    expectUserError(await runCli(['report', '-']), 'give report the result files by name (standard input, -, is not read)');
    const taken = scratch.file('taken.msgpack', 'x');
    expectUserError(await runCli(['merge', taken, taken, '--out', taken]), /^patience: /);
    const shard = join(scratch.dir, 'one.msgpack');
    expect((await runCli(['winrate', 'british-canister', '--deals', '2', '--node-limit', '100', '--workers', '0', '--out', shard])).code).toBe(0);
    expectUserError(await runCli(['merge', shard, '--out', taken]), `${taken} already exists: remove it first or give another name (a winrate run's file is continued with winrate --resume ${taken})`);
  });

  it('standard input read twice, by - and by one of its names', async () => {
    const json = (await runCli(['show', 'canfield', '--seed', '1', '--json'])).stdout;
    expectUserError(await runCli(['verify', '--position', '-', '--moves', '/dev/stdin'], { input: json }), '--position and --moves cannot both read standard input');
    expectUserError(await runCli(['show', '--position', '/dev/stdin', '--after', '-'], { input: json }), '--position and --after cannot both read standard input');
  });

  it('numbers are decimal', async () => {
    expectUserError(await runCli(['solve', 'canfield', '--seed', '1', '--time-limit', '0x10']), 'bad --time-limit "0x10": expected a number above 0');
    const sci = await runCli(['solve', 'british-canister', '--seed', '1', '--node-limit', '1e6']);
    expect(sci.stderr).toBe('');
    expect(sci.code).toBe(1);
  });

  it('files that are directories, endless, empty-named or too large to be what they claim', async () => {
    const dir = join(scratch.dir, 'adir');
    mkdirSync(dir);
    expectUserError(await runCli(['report', dir]), `cannot read result file ${dir}: it is a directory`);
    expectUserError(await runCli(['winrate', '--resume', dir]), `cannot read result file ${dir}: it is a directory`);
    expectUserError(await runCli(['winrate', 'canfield', '--deals', '3', '--node-limit', '10', '--out', dir]), `${dir} is a directory: give the result file's own name (say ${join(dir, 'run.msgpack')})`);
    expectUserError(await runCli(['show', '--position', '/dev/zero']), 'cannot read position file /dev/zero: more than 16 MiB, which no position file is');
    expectUserError(await runCli(['verify', 'canfield', '--seed', '1', '--moves', '/dev/zero']), 'cannot read moves file /dev/zero: more than 16 MiB, which no moves file is');
    expectUserError(await runCli(['report', '/dev/zero']), 'cannot read result file /dev/zero: not a regular file');
    const fifo = join(scratch.dir, 'fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    expectUserError(await runCli(['report', fifo]), `cannot read result file ${fifo}: not a regular file`);
    expectUserError(await runCli(['winrate', '--resume', fifo]), `cannot read result file ${fifo}: not a regular file`);
    const plain = scratch.file('plain.txt', 'x');
    expectUserError(await runCli(['winrate', 'canfield', '--deals', '3', '--node-limit', '10', '--out', join(plain, 'x')]), /^patience: cannot lock result file .*plain\.txt\/x \(.*plain\.txt\/x\.lock\): ENOTDIR: /);
    expectUserError(await runCli(['show', 'canfield', '--seed', '1', '--after', '']), '--after needs a file name, or - for standard input');
    const junk = scratch.file('junk.txt', 'x'.repeat(500) + ' -> t1\n');
    expectUserError(await runCli(['verify', 'canfield', '--seed', '1', '--moves', junk]), /^patience: .*junk\.txt: moves line 1: bad move "x{57}\.\.\.": cannot read the source "x{27}\.\.\." /);
  });

  it('the rules `games NAME` prints may be pasted into a position as they are', async () => {
    for (const game of ['canister', 'canfield']) {
      const position = JSON.parse((await runCli(['show', game, '--seed', '3', '--json'])).stdout) as Record<string, unknown>;
      position.rules = JSON.parse((await runCli(['games', game])).stdout);
      const shown = await runCli(['show', '--position', '-'], { input: JSON.stringify(position) });
      expect(shown.stderr).toBe('');
      expect(shown.stdout).toBe((await runCli(['show', game, '--seed', '3'])).stdout);
    }
    const canfield = JSON.parse((await runCli(['show', 'canfield', '--seed', '3', '--json'])).stdout) as Record<string, unknown>;
    canfield.rules = { game: 'storehouse' };
    expectUserError(await runCli(['show', '--position', '-'], { input: JSON.stringify(canfield) }), 'stdin: position: "rules" name the game "storehouse", but the position is "canfield"');
  });

  it('output that cannot be written (a full disk) is one line and exit 2, not a verdict', () => {
    const full = openSync('/dev/full', 'w');
    try {
      for (const args of [['solve', 'canfield', '--seed', '1'], ['show', 'canfield', '--seed', '1']]) {
        const r = spawnSync(process.execPath, [CLI, ...args], { stdio: ['ignore', full, 'pipe'], encoding: 'utf8' });
        expect(r.stderr).toBe('patience: cannot write the output: ENOSPC: no space left on device, write\n');
        expect(r.status).toBe(2);
      }
    } finally {
      closeSync(full);
    }
  });
});
