import { applyMove, defaultMemoryMiB, describePosition, formatMove, memoryWarning, type Move, type Position, replay, shortenSolution, solve } from '../../index';
import { defineCommand, EXIT, notTogether } from '../command';
import { readDeal, withDealOptions } from '../deal-input';
import { print, warn } from '../io';
import { limitsFromArgs, withLimitOptions } from '../limits';
import { createSearchStatus } from '../progress';

/** Why a search stopped, given the limits it ran with, and the flag that gives it more. */
const REASONS: Record<string, (limits: { nodeLimit: number; timeLimitMs: number; memoryMiB: number }) => string> = {
  nodes: (l) => `the node limit (${l.nodeLimit}) was hit before a verdict; a larger --node-limit may decide it`,
  time: (l) => `the time limit (${l.timeLimitMs / 1000} s) was hit before a verdict; a larger --time-limit may decide it`,
  memory: (l) => `the table memory (${l.memoryMiB} MiB) is full before a verdict; a larger --memory may decide it`,
};

const indent = (text: string, by: string): string => text.replace(/^/gm, by);

export const solveCommand = defineCommand({
  command: 'solve [game]',
  describe: 'Decide a deal or position: winnable (with the moves), unwinnable, or unknown',
  builder: (y) =>
    withLimitOptions(withDealOptions(y))
      .option('json', { type: 'boolean', describe: 'print one JSON object {verdict, moves, nodes, uniqueStates, elapsedMs, maxDepth, reason?, drawOne?, stricterGame?}' })
      .option('verbose', { alias: 'v', type: 'boolean', describe: 'print the position after each move' })
      .option('moves-only', { type: 'boolean', describe: 'print only the numbered moves (input for verify --moves)' })
      .check(notTogether(['json', 'verbose'], ['json', 'moves-only'], ['verbose', 'moves-only']))
      .example('$0 solve canfield --seed 1', 'solve canfield deal 1')
      .example('$0 solve canfield --seed 1 --draw 1 --time-limit 10', 'drawing one card, at most 10 seconds')
      .example('$0 solve --position p.json --json', 'a position from a file, as JSON'),
  run: (args) => {
    const position = readDeal(args);
    const limits = limitsFromArgs(args);
    if (limits.memoryMiB !== undefined) warn(memoryWarning(limits.memoryMiB, 1));
    // A hard deal can take minutes: on a terminal, a status line shows the search going on.
    const status = createSearchStatus({ limitMs: limits.timeLimitMs });
    const options = { memoryMiB: defaultMemoryMiB(1), nodeLimit: Infinity, timeLimitMs: Infinity, ...limits };
    const result = solve(position, { ...options, onProgress: (p) => status.update(p) });
    status.finish();
    let moves = result.moves ?? [];
    if (result.verdict === 'winnable') {
      checkSolution(position, moves);
      // The search's line wanders where cards come back from the foundations: a player gets the
      // shortest way through the positions it passes, replayed again.
      moves = shortenSolution(position, moves);
      checkSolution(position, moves);
    }
    const exit = result.verdict === 'winnable' ? EXIT.ok : result.verdict === 'unwinnable' ? EXIT.no : EXIT.unknown;
    if (args.json) {
      print(
        JSON.stringify({
          verdict: result.verdict,
          moves: moves.map(formatMove),
          nodes: result.nodes,
          uniqueStates: result.uniqueStates,
          elapsedMs: result.elapsedMs,
          maxDepth: result.maxDepth,
          ...(result.reason !== undefined ? { reason: result.reason } : {}),
          ...(result.drawOne !== undefined ? { drawOne: result.drawOne } : {}),
          ...(result.stricterGame !== undefined ? { stricterGame: result.stricterGame } : {}),
        }),
      );
      return exit;
    }
    const width = String(moves.length).length;
    const numbered = (m: Move, i: number) => `${String(i + 1).padStart(width)}. ${formatMove(m)}`;
    if (args.movesOnly) {
      moves.forEach((m, i) => print(numbered(m, i)));
      return exit;
    }
    const verdict =
      result.verdict === 'winnable' ? `winnable in ${moves.length} moves`
      : result.verdict === 'unwinnable' && result.drawOne?.outcome === 'unwinnable'
        ? 'unwinnable: even dealing the stock one card at a time with unlimited redeals (which allows every line of this deal), every reachable position was searched'
      : result.verdict === 'unwinnable' ? 'unwinnable: every reachable position was searched'
      : `unknown: ${REASONS[result.reason ?? '']?.(options) ?? 'the search stopped before a verdict'}`;
    print(verdict);
    print(`nodes ${result.nodes}   unique states ${result.uniqueStates}   ${Math.round(result.elapsedMs)} ms   max depth ${result.maxDepth}`);
    if (moves.length === 0) return exit;
    print();
    if (args.verbose) print(indent(describePosition(position), '    '));
    if (args.verbose) {
      let current = position;
      moves.forEach((m, i) => {
        print(numbered(m, i));
        current = applyMove(current, m);
        print(indent(describePosition(current), '    '));
      });
      return exit;
    }
    // A player reads the moves: a run of deals (often ten or more, turning the stock to one card)
    // is one line, which keeps the numbers of the moves it stands for.
    for (let i = 0; i < moves.length; ) {
      let end = i;
      while (end < moves.length && moves[end]!.kind === 'deal') end++;
      if (end - i >= DEALS_JOINED) {
        print(`${String(i + 1).padStart(width)}. deal ${end - i} times (moves ${i + 1}-${end})`);
        i = end;
      } else {
        print(numbered(moves[i]!, i));
        i++;
      }
    }
    return exit;
  },
});

/** Consecutive deals printed as one line, from this many (not in --moves-only or --verbose). */
const DEALS_JOINED = 3;

/** A solution that does not replay to a win is a solver bug: refuse to print it as an answer. */
function checkSolution(position: Position, moves: readonly Move[]): void {
  const check = replay(position, moves);
  if (!check.legal || !check.won) {
    const where = check.failedAt !== undefined ? `move ${check.failedAt + 1} is illegal (${check.reason})` : 'it does not end in a win';
    throw new Error(`the solver's solution failed the referee: ${where}`);
  }
}
