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
  // The state is JSON however it is asked for: -o json and --jq filter it (a table would not help).
  formats: ['json'],
  examples: ['proxyctl sandbox state | jq .balanceUsd', "proxyctl sandbox state --jq '.units | length'"],
  load: async () => (await import('./state.js')).default,
});
