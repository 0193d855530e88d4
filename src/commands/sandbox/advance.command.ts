import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';
import { WHICH_SANDBOX } from '../../kit/options.js';

const command = () =>
  new Command('advance')
    .description('move the clock of a running sandbox forward (expiries, due webhook retries)')
    .argument('<seconds>', 'seconds to advance')
    .addHelpText('after', WHICH_SANDBOX);
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  // No formats: a helper for tests and demos, it prints JSON with --json and its own text otherwise.
  examples: ['proxyctl sandbox advance 3600'],
  load: async () => (await import('./advance.js')).default,
});
