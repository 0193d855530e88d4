import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () => new Command('enable').description('set again the URL that webhook disable turned off, with a new secret shown once');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl'],
  examples: ['proxyctl webhook enable', 'proxyctl webhook enable --json | jq -r .secret'],
  load: async () => (await import('./enable.js')).default,
});
