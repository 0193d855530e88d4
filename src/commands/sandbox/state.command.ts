import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';
import { WHICH_SANDBOX } from '../../kit/options.js';

const command = () =>
  new Command('state')
    .description('print the whole state of a running sandbox as JSON (units, deliveries, balance)')
    .addHelpText('after', WHICH_SANDBOX);
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  // No formats: the state is printed as JSON whatever -o says.
  examples: ['proxyctl sandbox state | jq .balanceUsd'],
  load: async () => (await import('./state.js')).default,
});
