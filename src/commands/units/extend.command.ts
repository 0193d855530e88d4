import { Command } from '../commander.js';
import { defineCommand, type InputOf } from '../action.js';
import { askedIfMissing, dryRun, period } from '../options.js';

const command = () =>
  new Command('extend')
    .description('add one period to one or more units (charged per unit)')
    .argument('<refs...>', 'unit references')
    .addOption(askedIfMissing(period()))
    .addOption(dryRun('print the price and the balance afterwards; extend nothing'));
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  examples: ['proxyctl units extend PRX-123 --period 7d', 'proxyctl units extend PRX-1 PRX-2 PRX-3 --period 30d --dry-run'],
  load: async () => (await import('./extend.js')).default,
});
