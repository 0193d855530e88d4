import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () =>
  new Command('unset')
    .description("remove a profile's setting")
    .argument(
      '<key>',
      "setting name: check-target, max-spend-per-run, max-spend-per-day, allowed-periods, allowed-countries, default-markup or ledger-url (back to this machine's own ledger)",
    );
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  examples: ['proxyctl config unset check-target'],
  load: async () => (await import('./unset.js')).default,
});
