import { Command } from '../commander.js';
import { defineCommand, type InputOf } from '../action.js';
import { all, page, pageSize, pool } from '../options.js';

const command = () =>
  new Command('list')
    .alias('ls')
    .description('list units (active ones unless told otherwise)')
    .option('--status <status>', 'only units with this status: ACTIVE, EXPIRED or RELEASED')
    .addOption(pool('only units of this pool'))
    .option('--include-expired', 'include expired units')
    .option('--expiring-within <hours>', 'only units expiring within this many hours')
    .addOption(page())
    .addOption(pageSize('units per page, 1 to 200 (default 50)'))
    .addOption(all());
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  examples: ['proxyctl units list', 'proxyctl units list --all -o conn > proxies.txt', 'proxyctl units list --expiring-within 24 --json'],
  load: async () => (await import('./list.js')).default,
});
