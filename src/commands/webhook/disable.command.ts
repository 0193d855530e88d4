import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () =>
  new Command('disable')
    .description('stop deliveries; the URL is remembered in the profile, so webhook enable sets it again')
    .option('--remove', 'delete the webhook instead, URL and secret, nothing remembered (same as webhook delete)');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl'],
  examples: ['proxyctl webhook disable', 'proxyctl webhook disable && proxyctl webhook enable   # back, with a new secret'],
  load: async () => (await import('./disable.js')).default,
});
