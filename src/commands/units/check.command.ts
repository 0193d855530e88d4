import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';
import { customer, pool, protocol } from '../../kit/options.js';

const command = () =>
  new Command('check')
    .description('connect through units and request a target: does each proxy carry traffic? (exit 10 if any fails)')
    .argument('[refs...]', 'unit references')
    .option('--all', 'every active unit')
    .addOption(pool('every active unit of this pool'))
    .addOption(customer('every active unit tagged for exactly this customer (customer=NAME in the description; with --pool, in that pool)'))
    .option('--from-file <file>', 'connection lines to check (ip:port:user:pass, ip:port, user:pass@ip:port, socks5://…, http://…)')
    .addOption(protocol('protocol of --from-file lines that do not say (default: try socks5, then http)'))
    .option('--target <url>', 'URL to request through each unit (default: config check-target, or the sandbox echo)')
    .option('--concurrency <n>', 'checks at once, 1 to 256', '8')
    .option('--ca-cert <file>', "also trust this CA (PEM file) for an https target's certificate")
    .addHelpText(
      'after',
      '\nThe global --timeout S bounds each check, from connecting to the whole answer (default 10 s here).\n' +
        "An https target's certificate is checked; one that cannot be trusted fails\n" +
        'the check with tls_error. The global --insecure skips that check; --ca-cert\n' +
        'FILE trusts a CA of your own besides the usual ones.',
    );
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl', 'csv'],
  examples: [
    'proxyctl units check --all',
    'proxyctl units check --customer acme -o json',
    'proxyctl units check PRX-1 PRX-2 --target "$PROXYCTL_BASE_URL/echo" --timeout 5   # the sandbox\'s echo',
    'proxyctl units check --from-file proxies.txt --concurrency 32 -o json',
  ],
  load: async () => (await import('./check.js')).default,
});
