import { csvLines, PatienceError, readResults, summarize } from '../../index';
import { defineCommand, EXIT, notTogether } from '../command';
import { print, warn } from '../io';
import { formatRunSummary } from '../run-summary';

export const reportCommand = defineCommand({
  command: 'report <files..>',
  describe: 'Summarize result files of winrate runs (several: parts of one estimate), or export them as CSV',
  builder: (y) =>
    y
      .positional('files', { type: 'string', array: true, describe: 'result files (.msgpack) written by winrate --out or merge' })
      .option('json', { type: 'boolean', describe: 'print the summary as one JSON object' })
      .option('csv', { type: 'boolean', describe: 'print one CSV row per deal instead: deal,verdict,reason,nodes,ms,solution_length,solution,error' })
      .check(notTogether(['json', 'csv']))
      .example('$0 report cf.msgpack', 'the summary of a run')
      .example('$0 report cf-*.msgpack', 'the shards of a cluster run together')
      .example('$0 report cf.msgpack --csv > cf.csv', 'per-deal rows for a spreadsheet'),
  run: (args) => {
    const files = (args.files ?? []).map(String);
    if (files.length === 0) throw new PatienceError('give report the result files by name (standard input, -, is not read)');
    const set = readResults(files, { details: args.csv === true });
    warn(...set.warnings);
    if (args.csv) {
      // Written in chunks: a run of millions of deals is too big for one string.
      let chunk: string[] = [];
      for (const line of csvLines(set)) {
        chunk.push(line);
        if (chunk.length >= 10_000) {
          process.stdout.write(chunk.join('\n') + '\n');
          chunk = [];
        }
      }
      if (chunk.length) process.stdout.write(chunk.join('\n') + '\n');
      return EXIT.ok;
    }
    const summary = summarize(set);
    if (args.json) print(JSON.stringify({ ...summary, files, warnings: set.warnings }));
    else for (const line of formatRunSummary(summary)) print(line);
    return EXIT.ok;
  },
});
