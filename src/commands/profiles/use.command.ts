import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () => new Command('use').description('make a stored profile the current one').argument('<name>', 'profile name');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  examples: ['proxyctl profiles use work'],
  load: async () => (await import('./use.js')).default,
});
