import { Command } from '../commander.js';
import { defineCommand, type InputOf } from '../action.js';

const command = () => new Command('get').description('show one unit').argument('<ref>', 'unit reference, e.g. PRX-123');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  examples: ['proxyctl units get PRX-123', 'proxyctl units get PRX-123 -o conn'],
  load: async () => (await import('./get.js')).default,
});
