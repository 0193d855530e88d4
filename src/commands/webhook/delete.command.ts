import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () =>
  new Command('delete').description('delete the webhook: URL and secret removed, nothing kept for webhook enable (was disable --remove)');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl'],
  examples: ['proxyctl webhook delete', 'proxyctl webhook delete --json'],
  load: async () => (await import('./delete.js')).default,
});
