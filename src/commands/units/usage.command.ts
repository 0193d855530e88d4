import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () => new Command('usage').description("a unit's traffic against its quota").argument('<ref>', 'unit reference');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl', 'csv'],
  examples: ['proxyctl units usage PRX-123', 'proxyctl units usage PRX-123 --json'],
  load: async () => (await import('./usage.js')).default,
});
