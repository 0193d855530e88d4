import { defineCommand, type InputOf } from '../../kit/action.js';
import { Command } from '../../kit/commander.js';
import { connFormat, month, since, until } from '../../kit/options.js';

const command = () =>
  new Command('show')
    .description(
      'one customer: its active units, its spend in the window (default the last 30 days) and what renewing what is due within 7 days costs and bills',
    )
    .argument('<name>', 'the customer, as in its customer=NAME tag')
    .addOption(since())
    .addOption(until())
    .addOption(month())
    .option('--utc', 'on a terminal, times in UTC instead of local time')
    .addOption(connFormat())
    .addHelpText(
      'after',
      "\nThe table, csv and conn list the customer's units (-o conn hands them over);\n" +
        'the money is said below them, and -o json holds everything. Each unit due is\n' +
        'renewed for its own period: the period of its last debit in the ledger, else\n' +
        'the period the API gives for the unit, else the period nearest its first term\n' +
        "(json: renewal.units[].periodFrom ledger, unit or term), at the price list's\n" +
        "price now, billed by the customer's prices. Exit 5 when the name has no units\n" +
        'and no spend.',
    );
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'csv', 'conn'],
  examples: [
    'proxyctl customers show acme',
    'proxyctl customers show acme -o conn > acme-proxies.txt',
    "proxyctl customers show acme --conn-format '{user}:{pass}@{ip}:{port}'",
    'proxyctl customers show acme --json --jq .renewal',
  ],
  load: async () => (await import('./show.js')).default,
});
