import { presetRules, presets, rulesToJson } from '../../index';
import { defineCommand, EXIT } from '../command';
import { print } from '../io';

export const games = defineCommand({
  command: 'games [name]',
  describe: 'List the games (presets), or print one game\'s full rules as JSON',
  builder: (y) =>
    y
      .positional('name', { type: 'string', describe: 'a game to print the rules of' })
      .option('json', { type: 'boolean', describe: 'list the games as JSON' })
      .example('$0 games', 'one line per game')
      .example('$0 games canfield', 'the rules of canfield, every option'),
  run: (args) => {
    if (args.name !== undefined) {
      print(JSON.stringify(rulesToJson(presetRules(args.name)), null, 2));
      return EXIT.ok;
    }
    const entries = Object.entries(presets);
    if (args.json) {
      print(JSON.stringify(entries.map(([name, p]) => ({ name, description: p.description })), null, 2));
      return EXIT.ok;
    }
    const width = Math.max(...entries.map(([name]) => name.length));
    for (const [name, preset] of entries) print(`${name.padEnd(width)}  ${preset.description}`);
    return EXIT.ok;
  },
});
