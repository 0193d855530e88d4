import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () =>
  new Command('remove')
    .alias('rm')
    .description('delete a stored profile: its key and its settings (base URL, budgets, policy); asks first, or --yes')
    .argument('<name>', 'profile name');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  examples: ['proxyctl profiles remove old-account --yes'],
  load: async () => (await import('./remove.js')).default,
});
