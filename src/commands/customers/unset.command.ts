import { defineCommand, type InputOf } from '../../kit/action.js';
import { Command } from '../../kit/commander.js';

const command = () =>
  new Command('unset')
    .description("forget a customer's prices (its debits are then billed by the profile's default-markup, else at cost)")
    .argument('<name>', 'the customer, as in its customer=NAME tag');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  examples: ['proxyctl customers unset acme'],
  load: async () => (await import('./unset.js')).default,
});
