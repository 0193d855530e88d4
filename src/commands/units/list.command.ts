import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';
import {
  all,
  connFormat,
  country,
  customer,
  descriptionContains,
  expiringWithin,
  limit,
  NOT_A_CUSTOMER,
  page,
  pageSize,
  pool,
  protocol,
} from '../../kit/options.js';

const command = () =>
  new Command('list')
    .alias('ls')
    .description('list units (active ones unless told otherwise): every unit, streamed, unless --limit or --page')
    .option('--status <status>', 'only units with this status: ACTIVE, EXPIRED or RELEASED')
    .addOption(pool('only units of this pool'))
    .option('--include-expired', 'include expired units')
    .addOption(expiringWithin('only units expiring within this many hours'))
    .addOption(limit())
    .addOption(page())
    .addOption(pageSize('only one page of this many units, 1 to 200'))
    .addOption(all())
    .addOption(
      descriptionContains(
        `only units whose description contains this text, in any case (${NOT_A_CUSTOMER}; matched after paging; --limit counts matches)`,
      ),
    )
    .addOption(customer('only units tagged for exactly this customer (customer=NAME in the description; matched after paging)'))
    .addOption(country('only units in this country (ISO alpha-2, e.g. US; matched after paging)'))
    .addOption(protocol('only units of this protocol: socks5, http, http_noauth (inject); matched after paging'))
    .option('--provider <name>', 'only units of this carrier, in any case (matched after paging)')
    .option(
      '--sort <field>',
      'order by expiry, created, pool, country or ref; -FIELD for descending (reads the whole list before printing the first unit; --limit then keeps the first N)',
    )
    .option('--utc', 'on a terminal, times in UTC instead of local time (json, jsonl and csv are always ISO 8601 UTC)')
    .addOption(connFormat());
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl', 'csv', 'conn'],
  examples: [
    'proxyctl units list -o conn > proxies.txt',
    'proxyctl units list --limit 10',
    'proxyctl units list --page 2 --page-size 50',
    'proxyctl units list --expiring-within 36h --json',
    "proxyctl units list --description-contains acme --conn-format '{user}:{pass}@{ip}:{port}' > acme.txt",
    'proxyctl units list --customer acme -o conn > acme.txt',
    'proxyctl units list --country US --protocol http --sort -expiry',
    'proxyctl units list --sort expiry --limit 20 --utc',
  ],
  load: async () => (await import('./list.js')).default,
});
