import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () =>
  new Command('migrate').description('move the API keys kept in the config file into the OS keyring (the file keeps only a reference)');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  examples: ['proxyctl profiles migrate'],
  load: async () => (await import('./migrate.js')).default,
});
