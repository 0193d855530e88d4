import { defineCommand, type InputOf } from '../../kit/action.js';
import { Command } from '../../kit/commander.js';
import { connFormat } from '../../kit/options.js';

const command = () =>
  new Command('get').description('show one unit').argument('<ref>', 'unit reference, e.g. PRX-123').addOption(connFormat());
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl', 'csv', 'conn'],
  examples: ['proxyctl units get PRX-123', 'proxyctl units get PRX-123 -o conn', 'proxyctl units get PRX-123 --conn-format url'],
  load: async () => (await import('./get.js')).default,
});
