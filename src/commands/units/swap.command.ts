import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';
import { askedIfMissing, connFormat, pool } from '../../kit/options.js';

const command = () =>
  new Command('swap')
    .description('move a unit to another pool, keeping its remaining time (free)')
    .argument('<ref>', 'unit reference')
    .addOption(askedIfMissing(pool('the new pool')))
    .addOption(connFormat())
    .option(
      '--same-country',
      "pick an available pool in the unit's country (same state first, another provider preferred) instead of --pool",
    );
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl', 'csv', 'conn'],
  examples: [
    'proxyctl units swap PRX-123 --pool US-14',
    'proxyctl units swap PRX-123 --pool US-14 -o conn',
    'proxyctl units swap PRX-123 --same-country',
  ],
  load: async () => (await import('./swap.js')).default,
});
