import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () =>
  new Command('logout').description(
    'forget the stored API key of a profile (the current one by default); its settings stay until profiles remove',
  );
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  examples: ['proxyctl logout', 'proxyctl logout --profile work'],
  load: async () => (await import('./logout.js')).default,
});
