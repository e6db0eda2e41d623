import { describePosition, formatPosition } from '../../index';
import { defineCommand, EXIT } from '../command';
import { readDeal, withDealOptions } from '../deal-input';
import { print } from '../io';

export const show = defineCommand({
  command: 'show [game]',
  describe: 'Print a deal or position readably, or as position JSON',
  builder: (y) =>
    withDealOptions(y)
      .option('json', { type: 'boolean', describe: 'print the position JSON (input for --position)' })
      .example('$0 show canfield --seed 1', 'the layout of canfield deal 1')
      .example('$0 show storehouse --seed 7 --json > p.json', 'save a deal as a position file'),
  run: (args) => {
    const position = readDeal(args);
    print(args.json ? JSON.stringify(formatPosition(position), null, 2) : describePosition(position));
    return EXIT.ok;
  },
});
