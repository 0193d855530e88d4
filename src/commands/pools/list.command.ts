import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';
import { country } from '../../kit/options.js';

const command = () =>
  new Command('list')
    .alias('ls')
    .description('list pools with their prices, optionally filtered (the default of "pools"); with a pool id, that pool')
    .argument('[pool-id]', 'only this pool, as pools get POOL_ID (pools US-12)')
    .option('--provider <name>', 'only this carrier')
    .addOption(country('only this country (ISO alpha-2, e.g. US)'))
    .option('--state <slug>', 'only this state/region')
    .option('--rotation <interval>', 'only this rotation interval, e.g. 10m');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  // With a pool id it is `pools get`, one object, printed as get prints it.
  formats: (_flags, [poolId]) => (poolId === undefined ? ['table', 'json', 'jsonl', 'csv'] : ['table', 'json', 'jsonl']),
  isDefault: true,
  examples: [
    'proxyctl pools',
    'proxyctl pools --country us --provider Verizon',
    'proxyctl pools US-12',
    'proxyctl pools --json | jq -r ".[] | select(.available) | .poolId"',
  ],
  load: async () => (await import('./list.js')).default,
});
