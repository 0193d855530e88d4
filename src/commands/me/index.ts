import { Argument, Option, type Command } from 'commander';
import { examples, lazyAction, type Runtime } from '../action.js';

export function registerAccount(program: Command, rt: Runtime): void {
  const me = program
    .command('me')
    .description('account snapshot: balance, discount, units, prices, webhook')
    .addHelpText('after', examples('proxyctl me', 'proxyctl me --json | jq .balanceUsd'))
    .action(lazyAction(rt, () => import('./show.js')));

  me.command('uptime')
    .description('uptime of your units over a window (default: the last 24 hours)')
    .addOption(new Option('--day <n>', 'the last N days, 1-30').conflicts(['from', 'to']))
    .option('--from <iso>', 'window start, ISO 8601')
    .option('--to <iso>', 'window end, ISO 8601 (clamped to now)')
    .addHelpText(
      'after',
      examples('proxyctl me uptime', 'proxyctl me uptime --day 7', 'proxyctl me uptime --from 2026-01-01T00:00:00Z --to 2026-01-08T00:00:00Z --json'),
    )
    .action(lazyAction(rt, () => import('./uptime.js')));

  const username = me.command('username').description('the fixed proxy username used for units created from now on');
  username
    .command('set')
    .description('pin one proxy username for every unit created afterwards')
    .addArgument(new Argument('<name>', '3-32 characters, no spaces, ":" or "@"'))
    .addHelpText('after', examples('proxyctl me username set acme_proxies'))
    .action(lazyAction(rt, () => import('./username.js').then((m) => ({ default: m.set }))));
  username
    .command('clear')
    .description('stop pinning: new units get a random login again')
    .addHelpText('after', examples('proxyctl me username clear'))
    .action(lazyAction(rt, () => import('./username.js').then((m) => ({ default: m.clear }))));

  program
    .command('account')
    .description('balance, discount and reseller status')
    .addHelpText('after', examples('proxyctl account', 'proxyctl account -o json'))
    .action(lazyAction(rt, () => import('./account.js')));
}
