import { defineCommand, type InputOf } from '../../kit/action.js';
import { Command, Option } from '../../kit/commander.js';

const command = () =>
  new Command('spend')
    .description("what proxyctl's ledger says was spent: every debit, or totals per day, customer, pool…")
    .option('--since <date>', 'from this date (YYYY-MM-DD, local midnight), time (ISO 8601) or this long ago (24h, 1d12h, 1w, 90m)')
    .option('--until <date>', 'up to this date (YYYY-MM-DD: to the end of that day), time or this long ago; default now')
    .addOption(
      new Option('--by <group>', 'totals per group instead of one row per debit').choices([
        'day',
        'week',
        'month',
        'customer',
        'pool',
        'country',
        'period',
      ]),
    )
    .option(
      '--reconcile',
      'compare the debits with the balance readings proxyctl took, by time, and list what they do not explain (not with --by)',
    )
    .addHelpText(
      'after',
      '\nA debit belongs to the customer its unit had when it was debited (its\n' +
        'customer=NAME tag). Tagging untagged units (units modify --customer) gives\n' +
        'their earlier untagged debits to that customer; retagging from one customer\n' +
        'to another leaves past debits where they were, and later ones go to the new\n' +
        'customer. A purchase seen by its run and by webhook listen --ledger is one\n' +
        "debit with the run's customer, whichever was entered first.",
    );
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl', 'csv'],
  examples: [
    'proxyctl spend --since 2026-11-01 --by customer',
    'proxyctl spend --since 7d --by day -o csv > week.csv',
    'proxyctl spend --since 2026-11-01 --until 2026-11-30 --json | jq "map(.priceUsd) | add"',
    'proxyctl spend --reconcile',
  ],
  load: async () => (await import('./spend.js')).default,
});
