import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';
import { askedIfMissing, customer, descriptionContains, dryRun, expiringWithin, NOT_A_CUSTOMER, period, pool } from '../../kit/options.js';

const command = () =>
  new Command('extend')
    .description('add one period to units, named or selected by expiry (charged per unit)')
    .argument('[refs...]', 'unit references (or select them with --expiring-within)')
    .addOption(askedIfMissing(period()))
    .addOption(dryRun('print the price and the balance afterwards; extend nothing'))
    .addOption(expiringWithin('instead of refs: every active unit expiring within this many hours (asks first; --yes without a terminal)'))
    .addOption(pool('with --expiring-within: only units of this pool'))
    .addOption(customer('with --expiring-within: only units tagged for exactly this customer (customer=NAME in the description)'))
    .addOption(
      descriptionContains(`with --expiring-within: only units whose description contains this text, in any case (${NOT_A_CUSTOMER})`),
    )
    .option('--max-spend <usd>', 'refuse (exit 2, nothing charged) when the total would be more than this many USD')
    .option('--fit', 'with --max-spend: instead of refusing, extend the soonest-expiring units the amount pays for and list the others');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl', 'csv'],
  examples: [
    'proxyctl units extend PRX-123 --period 7d',
    'proxyctl units extend PRX-1 PRX-2 PRX-3 --period 30d --dry-run',
    'proxyctl units extend --expiring-within 24 --period 7d --dry-run',
    'proxyctl units extend --expiring-within 48 --period 30d --pool US-12 --max-spend 200 --yes',
    'proxyctl units extend --expiring-within 24 --period 7d --customer acme --yes',
    'proxyctl units extend --expiring-within 24 --period 7d --description-contains "batch 7" --yes',
    'proxyctl units extend --expiring-within 2d --period 7d --max-spend 100 --fit --yes',
  ],
  load: async () => (await import('./extend.js')).default,
});
