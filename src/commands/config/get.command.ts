import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () =>
  new Command('get').description("print a profile's setting (exit 5 when it is not set)").argument('<key>', 'setting name: check-target');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  examples: ['proxyctl config get check-target'],
  load: async () => (await import('./get.js')).default,
});
