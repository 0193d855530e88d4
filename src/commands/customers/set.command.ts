import { defineCommand, type InputOf } from '../../kit/action.js';
import { Command, Option } from '../../kit/commander.js';
import { collect } from '../../kit/options.js';

const command = () =>
  new Command('set')
    .description("set a customer's prices, stored with the profile: a markup over cost, fixed prices per period, or both")
    .argument('<name>', 'the customer, as in its customer=NAME tag')
    .option('--markup <percent>', 'billed = cost × (1 + percent), rounded to the cent per debit, e.g. 30%')
    .addOption(
      new Option(
        '--price <period=usd>',
        'a fixed price for one unit and period, bought or extended, e.g. 7d=30 (repeat for more periods)',
      ).argParser(collect),
    )
    .addHelpText(
      'after',
      "\nA period without a fixed price is billed by the markup, else by the profile's\n" +
        'default-markup (config set default-markup 20%), else at cost. Setting a\n' +
        "markup or a price keeps the customer's others; customers unset NAME forgets\n" +
        'them all.',
    );
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  examples: [
    'proxyctl customers set acme --markup 30%',
    'proxyctl customers set globex --price 7d=30 --price 30d=100',
    'proxyctl customers set initech --price 30d=95 --markup 25%',
  ],
  load: async () => (await import('./set.js')).default,
});
