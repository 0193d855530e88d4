import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () =>
  new Command('list')
    .alias('ls')
    .description('list stored profiles; marks the one this invocation uses (--profile, PROXYCTL_PROFILE or the current one) and says why');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl', 'csv'],
  isDefault: true,
  examples: ['proxyctl profiles list', 'proxyctl profiles list --json'],
  load: async () => (await import('./list.js')).default,
});
