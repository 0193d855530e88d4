import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () =>
  new Command('test')
    .description('fire a sample unit.created event at the registered URL and show its delivery')
    .option('--wait <seconds>', 'how long to wait for the first attempt to finish (0: do not wait)', '10');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl'],
  examples: ['proxyctl webhook test', 'proxyctl webhook test --json | jq .status'],
  load: async () => (await import('./test.js')).default,
});
