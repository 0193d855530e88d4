// `proxyctl sandbox` (serve the local API) and its helpers that talk to a running sandbox.
import { Argument, type Command } from 'commander';
import { examples, lazyAction, type Runtime } from '../action.js';

export function registerSandbox(program: Command, rt: Runtime): void {
  const sandbox = program
    .command('sandbox')
    .description('run the local sandbox API (a faithful Reseller API, no money involved) until Ctrl-C')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on; 0 picks a free one', '8787')
    .option('--state <file>', 'persist state to this file (atomic writes) instead of memory')
    .option('--api-key <key>', 'main API key (env PROXYCTL_SANDBOX_API_KEY)')
    .option('--disabled-api-key <key>', 'key of an account without reseller mode (env PROXYCTL_SANDBOX_DISABLED_API_KEY)')
    .option('--balance <usd>', 'starting balance in USD', '1000')
    .option('--discount <percent>', 'reseller discount in percent', '15')
    .option('--seed <n>', 'catalogue seed', '42')
    .option('--rate-limit <n>', 'account-wide requests per window', '120')
    .option('--uptime-rate-limit <n>', 'uptime requests per window', '10')
    .option('--rate-window <seconds>', 'rate-limit window in seconds', '60')
    .option('--time-scale <factor>', 'sandbox seconds per real second (expiries, webhook retries)', '1')
    .option('--fail-pool <poolId>', 'a pool whose provisioning always fails (503, refunded)')
    .option('--failure-rate <0..1>', 'probability that any create/extend fails upstream', '0')
    .option('--balance-low-threshold <usd>', 'balance.low fires below this balance', '50')
    .option('--delivery-timeout <ms>', 'webhook receiver timeout in milliseconds', '5000')
    .option('--engine-delay <ms>', 'milliseconds the provisioning engine takes per create/extend', '20')
    .option('--alt-paths', 'serve the 3 operations the spec leaves unshown at alternative paths')
    .addHelpText(
      'after',
      examples(
        'proxyctl sandbox',
        'proxyctl sandbox --port 0 --json | head -1',
        'proxyctl sandbox --state ./sandbox.json --time-scale 60 --fail-pool US-12',
      ),
    )
    .action(lazyAction(rt, () => import('./serve.js')));

  sandbox
    .command('trigger')
    .description('fire an operator event (unit.down, usage.warning, usage.throttled, server.down, server.ip_changed, …) on a running sandbox')
    .addArgument(new Argument('<event>', 'event name'))
    .option('--unit <ref>', 'proxyRef of the unit concerned')
    .option('--pool <id>', 'poolId of the server concerned (server.* events)')
    .option('--reason <reason>', 'reason (unit.down: quota_exceeded | server_unreachable)')
    .option('--kind <kind>', 'usage.warning kind: throttle (80%) | delete (75%)')
    .option('--new-ip <ip>', 'server.ip_changed: the new address')
    .option('--data <json>', 'extra fields merged into the event data')
    .addHelpText('after', examples('proxyctl sandbox trigger unit.down --unit PRX-1 --reason quota_exceeded', 'proxyctl sandbox trigger server.down --pool US-11'))
    .action(lazyAction(rt, () => import('./trigger.js')));

  sandbox
    .command('advance')
    .description('move the clock of a running sandbox forward (expiries, due webhook retries)')
    .addArgument(new Argument('<seconds>', 'seconds to advance'))
    .addHelpText('after', examples('proxyctl sandbox advance 3600'))
    .action(lazyAction(rt, () => import('./advance.js')));

  sandbox
    .command('state')
    .description('print the whole state of a running sandbox as JSON (units, deliveries, balance)')
    .addHelpText('after', examples('proxyctl sandbox state | jq .balanceUsd'))
    .action(lazyAction(rt, () => import('./state.js')));
}
