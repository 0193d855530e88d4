import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () => new Command('providers').description('carriers with their pool counts');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl', 'csv'],
  examples: ['proxyctl providers', 'proxyctl providers -o csv'],
  load: async () => (await import('./providers.js')).default,
});
