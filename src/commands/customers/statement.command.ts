import { defineCommand, type InputOf } from '../../kit/action.js';
import { Command } from '../../kit/commander.js';
import { month, since, until } from '../../kit/options.js';

const command = () =>
  new Command('statement')
    .description("a customer's statement: one line per debit attributed to it in the window, cost and billed, then the totals")
    .argument('[name]', 'the customer, as in its customer=NAME tag (or --all)')
    .option('--all', 'every customer with a debit in the window: -o csv one file with a customer column, -o json an array of statements')
    .addOption(month('the calendar month to bill, YYYY-MM (local time); or --since/--until; default the last 30 days'))
    .addOption(since())
    .addOption(until())
    .option('--utc', 'on a terminal, times in UTC instead of local time (json and csv are always ISO 8601 UTC)')
    .addHelpText(
      'after',
      '\nEach line is billed on its own and rounded to the cent (see customers --help);\n' +
        'the totals are the sums of the lines. Debits no customer is attributed to are\n' +
        'on no statement (--all says how many). Exit 5 for a name with no debit, no\n' +
        'tagged unit and no prices.',
    );
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'csv'],
  examples: [
    'proxyctl customers statement acme --month 2026-11',
    'proxyctl customers statement acme --month 2026-11 -o csv > acme-2026-11.csv',
    'proxyctl customers statement --all --month 2026-11 -o csv > invoices-2026-11.csv',
    'proxyctl customers statement acme --since 2026-11-01 --until 2026-11-15 --json',
  ],
  load: async () => (await import('./statement.js')).default,
});
