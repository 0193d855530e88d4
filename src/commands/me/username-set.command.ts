import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () =>
  new Command('set')
    .description('pin one proxy username for every unit created afterwards')
    .argument('<name>', '3-32 characters, no spaces, ":" or "@"');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl'],
  examples: ['proxyctl me username set acme_proxies'],
  load: async () => (await import('./username-set.js')).default,
});
