import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';
import { customer } from '../../kit/options.js';

const command = () =>
  new Command('release')
    .alias('rm')
    .description('delete units permanently (no refund); asks first, or needs --yes without a terminal')
    .argument('[refs...]', 'unit references (or select them with --customer)')
    .addOption(customer('instead of refs: every active unit tagged for exactly this customer (customer=NAME in the description)'));
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl', 'csv'],
  examples: ['proxyctl units release PRX-123', 'proxyctl units release PRX-1 PRX-2 --yes', 'proxyctl units release --customer acme --yes'],
  load: async () => (await import('./release.js')).default,
});
