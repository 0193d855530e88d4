import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () => new Command('account').description('balance, discount and reseller status');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl'],
  examples: ['proxyctl account', 'proxyctl account -o json'],
  load: async () => (await import('./account.js')).default,
});
