import { mergeResults, PatienceError } from '../../index';
import { defineCommand, EXIT } from '../command';
import { print, warn } from '../io';
import { formatRunSummary } from '../run-summary';

export const mergeCommand = defineCommand({
  command: 'merge <files..>',
  describe: 'Join result files (shards of one run) into one, refusing files that disagree or overlap',
  builder: (y) =>
    y
      .positional('files', { type: 'string', array: true, describe: 'result files of one game, rules and limits' })
      .option('out', { type: 'string', describe: 'the merged result file (must not exist)', requiresArg: true })
      .option('json', { type: 'boolean', describe: 'print the merged summary as one JSON object' })
      .example('$0 merge cf-*.msgpack --out cf.msgpack', 'the shards of a cluster run into one file'),
  run: (args) => {
    if (args.out === undefined) throw new PatienceError('merge needs --out <file> for the merged results');
    const files = (args.files ?? []).map(String);
    const report = mergeResults(files, { out: args.out });
    warn(...report.warnings);
    if (args.json) {
      print(JSON.stringify({ ...report.summary, out: report.out, records: report.records, gaps: report.gaps, unfinished: report.unfinished, warnings: report.warnings }));
    } else {
      print(`merged ${files.length} files, ${report.records} deals, into ${report.out}`);
      for (const line of formatRunSummary(report.summary)) print(line);
    }
    return EXIT.ok;
  },
});
