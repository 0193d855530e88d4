import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';
import { country } from '../../kit/options.js';

const command = () =>
  new Command('list')
    .alias('ls')
    .description('list pools with their prices, optionally filtered (the default of "pools")')
    .option('--provider <name>', 'only this carrier')
    .addOption(country('only this country (ISO alpha-2, e.g. US)'))
    .option('--state <slug>', 'only this state/region')
    .option('--rotation <interval>', 'only this rotation interval, e.g. 10m');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl', 'csv'],
  isDefault: true,
  examples: [
    'proxyctl pools',
    'proxyctl pools --country us --provider Verizon',
    'proxyctl pools --json | jq -r ".[] | select(.available) | .poolId"',
  ],
  load: async () => (await import('./list.js')).default,
});
