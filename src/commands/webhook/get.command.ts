import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () => new Command('get').description('show the webhook configuration (the secret is masked in tables, shown in JSON)');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl'],
  examples: ['proxyctl webhook get', 'proxyctl webhook get --json | jq -r .secret'],
  load: async () => (await import('./get.js')).default,
});
