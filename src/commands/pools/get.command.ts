import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () => new Command('get').description('one pool with its prices').argument('<pool-id>', 'pool id, e.g. US-12');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl'],
  examples: ['proxyctl pools get US-12', 'proxyctl pools get US-12 --json'],
  load: async () => (await import('./get.js')).default,
});
