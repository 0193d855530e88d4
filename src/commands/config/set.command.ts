import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () =>
  new Command('set')
    .description(
      "store a setting with the profile (check-target, max-spend-per-run, max-spend-per-day, allowed-periods, allowed-countries, default-markup, ledger-url); with a ledger-url, the money settings are the team's",
    )
    .argument(
      '<key>',
      'setting name: check-target, max-spend-per-run, max-spend-per-day, allowed-periods, allowed-countries, default-markup or ledger-url',
    )
    .argument(
      '<value>',
      "its value: check-target an http(s) URL; max-spend-per-run and max-spend-per-day an amount in USD (per day: any 24 hours, all runs of the profile together); allowed-periods e.g. 7d,30d; allowed-countries e.g. US,DE; default-markup a percentage such as 30% (what customers without prices of their own are billed above cost); ledger-url a team's shared ledger, postgres://user:password@host:5432/db (tried first; the password kept apart, never shown)",
    );
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  examples: [
    'proxyctl config set check-target https://example.com/',
    'proxyctl --profile work config set check-target http://10.0.0.5/echo',
    'proxyctl config set max-spend-per-day 200',
    'proxyctl config set allowed-periods 7d,30d',
    'proxyctl config set default-markup 25%',
  ],
  load: async () => (await import('./set.js')).default,
});
