import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () =>
  new Command('set')
    .description('set the webhook URL (https; plain http only to this machine) and show the new secret once')
    .argument('<url>', 'receiver URL');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl'],
  examples: ['proxyctl webhook set https://hooks.example.com/proxy', 'proxyctl webhook set http://127.0.0.1:8484/ --json | jq -r .secret'],
  load: async () => (await import('./set.js')).default,
});
