import { defineCommand, type InputOf } from '../../kit/action.js';
import { Command } from '../../kit/commander.js';
import { month, since, until } from '../../kit/options.js';

const command = () =>
  new Command('list')
    .description(
      'what each customer costs, is billed and earns: active units, next expiry, cost, billed and margin (default: the last 30 days)',
    )
    .addOption(since())
    .addOption(until())
    .addOption(month())
    .addHelpText(
      'after',
      '\nCost is what the ledger says was debited for the customer (the customer a unit\n' +
        'had when it was debited; see proxyctl spend --help). Billed prices each debit\n' +
        "by the customer's prices (customers set): a fixed price for its period, else\n" +
        "the customer's markup, else the profile's default-markup, else the cost;\n" +
        'rounded to the cent per debit. Untagged spend is its own row, billed to nobody.',
    );
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl', 'csv'],
  examples: ['proxyctl customers', 'proxyctl customers --month 2026-11 --json', 'proxyctl customers --since 7d -o csv > customers.csv'],
  isDefault: true,
  load: async () => (await import('./list.js')).default,
});
