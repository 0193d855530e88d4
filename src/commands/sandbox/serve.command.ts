import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';
import { port } from '../../kit/options.js';

const command = () =>
  new Command('sandbox')
    .description('run the local sandbox API (a faithful Reseller API, no money involved) until Ctrl-C')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .addOption(port('port to listen on; 0 picks a free one', '8787'))
    .option('--state <file>', 'persist state to this file (atomic writes) instead of memory')
    .option('--api-key <key>', 'main API key (env PROXYCTL_SANDBOX_API_KEY)')
    .option('--disabled-api-key <key>', 'key of an account without reseller mode (env PROXYCTL_SANDBOX_DISABLED_API_KEY)')
    .option('--balance <usd>', 'starting balance in USD', '1000')
    .option('--discount <percent>', 'reseller discount in percent', '15')
    .option('--seed <n>', 'catalogue seed', '42')
    .option('--rate-limit <n>', 'account-wide requests per window', '120')
    .option('--uptime-rate-limit <n>', 'uptime requests per window', '10')
    .option('--rate-window <seconds>', 'rate-limit window in seconds', '60')
    .option('--time-scale <factor>', 'sandbox seconds per real second (expiries, webhook retries), at most 1000000', '1')
    .option('--fail-pool <poolId>', 'a pool whose provisioning always fails (503, refunded)')
    .option('--failure-rate <0..1>', 'probability that any create/extend fails upstream', '0')
    .option('--balance-low-threshold <usd>', 'balance.low fires below this balance', '50')
    .option('--delivery-timeout <ms>', 'webhook receiver timeout in milliseconds', '5000')
    .option('--engine-delay <ms>', 'milliseconds the provisioning engine takes per create/extend', '20')
    .option('--alt-paths', 'serve the 3 operations the spec leaves unshown at alternative paths')
    .option('--no-proxies', 'units get documentation addresses (198.51.100.x) where nothing listens, instead of real proxies on loopback')
    .option('--max-proxies <n>', 'units proxied at once; units sold past it are marked proxied: false', '1000');
export type Input = InputOf<typeof command>;

/** `proxyctl sandbox` serves the API itself and groups the helpers that talk to a running one. */
export default defineCommand({
  command,
  // No formats: a helper for tests and demos, it prints JSON with --json and its own text otherwise.
  examples: [
    'proxyctl sandbox',
    'proxyctl sandbox --port 0 --json | head -1',
    'proxyctl sandbox --state ./sandbox.json --time-scale 60 --fail-pool US-12',
  ],
  load: async () => (await import('./serve.js')).default,
});
