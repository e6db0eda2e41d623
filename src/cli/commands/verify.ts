import { formatMove, parseMoves, PatienceError, replay } from '../../index';
import { defineCommand, EXIT } from '../command';
import { readDeal, withDealOptions } from '../deal-input';
import { print, readsStdin, readText, sourceName } from '../io';

export const verify = defineCommand({
  command: 'verify [game]',
  describe: 'Replay a move list with the referee: won, not won, or the first illegal move',
  builder: (y) =>
    withDealOptions(y)
      .option('moves', {
        type: 'string',
        describe: 'move list file, one move a line (as solve --moves-only prints it), or - for standard input (required)',
        demandOption: true,
        requiresArg: true,
      })
      .option('json', { type: 'boolean', describe: 'print one JSON object {result, moves, movesApplied, failedAt?, move?, reason?}' })
      .example('$0 verify canfield --seed 1 --moves sol.txt', 'check a solution of deal 1')
      .example('$0 solve canfield --seed 1 --moves-only | $0 verify canfield --seed 1 --moves -', 'check the solver'),
  run: (args) => {
    if (readsStdin(args.moves) && (readsStdin(args.position) || readsStdin(args.after))) {
      throw new PatienceError(`--${readsStdin(args.position) ? 'position' : 'after'} and --moves cannot both read standard input`);
    }
    const position = readDeal(args);
    const text = readText(args.moves, 'moves');
    let moves;
    try {
      moves = parseMoves(text, position);
    } catch (e) {
      if (e instanceof PatienceError) throw new PatienceError(`${sourceName(args.moves)}: ${e.message}`);
      throw e;
    }
    const result = replay(position, moves);
    const failed = result.failedAt !== undefined ? moves[result.failedAt] : undefined;
    const outcome = !result.legal ? 'illegal' : result.won ? 'won' : 'not-won';
    if (args.json) {
      print(
        JSON.stringify({
          result: outcome,
          moves: moves.length,
          movesApplied: result.movesApplied,
          ...(failed ? { failedAt: result.failedAt! + 1, move: formatMove(failed), reason: result.reason } : {}),
        }),
      );
    } else if (failed) print(`illegal at move ${result.failedAt! + 1}: ${formatMove(failed)}: ${result.reason}`);
    else if (result.won) print(`won in ${moves.length} moves`);
    else print(`not won after ${moves.length} moves`);
    return outcome === 'won' ? EXIT.ok : outcome === 'not-won' ? EXIT.no : EXIT.usage;
  },
});
