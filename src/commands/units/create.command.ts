import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';
import { allowIp, connFormat, country, dryRun, password, period, pool, protocol, username } from '../../kit/options.js';

const command = () =>
  new Command('create')
    .alias('buy')
    .description('buy units from a pool (guided in a terminal when --pool/--period are missing)')
    .addOption(pool('pool to buy from (see proxyctl pools)'))
    .addOption(country('instead of --pool: buy from the cheapest available pool in this country (ISO alpha-2), said before buying'))
    .option('--state <slug>', 'with --country: only pools in this state/region')
    .option('--provider <name>', 'with --country: only pools of this carrier')
    .addOption(period())
    .addOption(protocol('socks5 (default), http, http_noauth (alias inject)'))
    .addOption(username('custom proxy username (with --password)'))
    .addOption(password('custom proxy password (with --username)'))
    .addOption(allowIp('the client IP allowed to use an http_noauth unit (exactly one)'))
    .option('--count <n>', 'how many units to buy, 1 to 500 (default 1)')
    .option('--idempotency-key <uuid>', 'base key: re-running with the same key within 24 h resumes instead of buying again')
    .option('--description <text>', 'free text written on each unit right after it is bought (as units modify --description)')
    .option(
      '--customer <name>',
      'tag each unit for this customer (customer=NAME in its description): units list --customer, spend --by customer',
    )
    .addOption(dryRun('print the price, the balance afterwards and the budget verdict; buy nothing'))
    .addOption(connFormat());
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl', 'csv', 'conn'],
  examples: [
    'proxyctl units create --pool US-12 --period 7d',
    'proxyctl units create --pool US-12 --period 30d --count 50 --idempotency-key "$(uuidgen)" -o conn',
    'proxyctl units create --pool DE-13 --period 24h --protocol inject --allow-ip 203.0.113.7 --dry-run',
    'proxyctl units create --pool US-12 --period 30d --count 5 --customer acme',
    'proxyctl units create --country US --state texas --period 7d --dry-run',
  ],
  load: async () => (await import('./create.js')).default,
});
