// `proxyctl units …`: registration only; each verb's code is loaded when it runs.
import type { Command } from 'commander';
import { examples, lazyAction, type Runtime } from '../action.js';

const collect = (v: string, prev: string[] | undefined) => [...(prev ?? []), v];
const PERIOD_HELP = 'period: 3h, 12h, 24h, 7d or 30d';

export function registerUnits(program: Command, rt: Runtime): void {
  const units = program.command('units').description('buy, list, extend, swap and release proxy units');

  units
    .command('list')
    .alias('ls')
    .description('list units (active ones unless told otherwise)')
    .option('--status <status>', 'only units with this status: ACTIVE, EXPIRED or RELEASED')
    .option('--pool <poolId>', 'only units of this pool')
    .option('--include-expired', 'include expired units')
    .option('--expiring-within <hours>', 'only units expiring within this many hours')
    .option('--page <n>', 'page number (1-based)')
    .option('--page-size <n>', 'units per page, 1 to 200 (default 50)')
    .option('--all', 'every page, streamed')
    .addHelpText('after', examples('proxyctl units list', 'proxyctl units list --all -o conn > proxies.txt', 'proxyctl units list --expiring-within 24 --json'))
    .action(lazyAction(rt, () => import('./list.js')));

  units
    .command('get')
    .description('show one unit')
    .argument('<ref>', 'unit reference, e.g. PRX-123')
    .addHelpText('after', examples('proxyctl units get PRX-123', 'proxyctl units get PRX-123 -o conn'))
    .action(lazyAction(rt, () => import('./get.js')));

  units
    .command('create')
    .alias('buy')
    .description('buy units from a pool (guided in a terminal when --pool/--period are missing)')
    .option('--pool <poolId>', 'pool to buy from (see proxyctl pools)')
    .option('--period <period>', PERIOD_HELP)
    .option('--protocol <protocol>', 'socks5 (default), http, http_noauth (alias inject)')
    .option('--username <name>', 'custom proxy username (with --password)')
    .option('--password <password>', 'custom proxy password (with --username)')
    .option('--allow-ip <ipv4>', 'the client IP allowed to use an http_noauth unit (exactly one)', collect)
    .option('--count <n>', 'how many units to buy, 1 to 500 (default 1)')
    .option('--idempotency-key <uuid>', 'base key: re-running with the same key within 24 h resumes instead of buying again')
    .option('--dry-run', 'print the price and the balance afterwards; buy nothing')
    .addHelpText(
      'after',
      examples(
        'proxyctl units create --pool US-12 --period 7d',
        'proxyctl units create --pool US-12 --period 30d --count 50 --idempotency-key "$(uuidgen)" -o conn',
        'proxyctl units create --pool DE-3 --period 24h --protocol inject --allow-ip 203.0.113.7 --dry-run',
      ),
    )
    .action(lazyAction(rt, () => import('./create.js')));

  units
    .command('extend')
    .description('add one period to one or more units (charged per unit)')
    .argument('<refs...>', 'unit references')
    .requiredOption('--period <period>', PERIOD_HELP)
    .option('--dry-run', 'print the price and the balance afterwards; extend nothing')
    .addHelpText('after', examples('proxyctl units extend PRX-123 --period 7d', 'proxyctl units extend PRX-1 PRX-2 PRX-3 --period 30d --dry-run'))
    .action(lazyAction(rt, () => import('./extend.js')));

  units
    .command('swap')
    .description('move a unit to another pool, keeping its remaining time (free)')
    .argument('<ref>', 'unit reference')
    .requiredOption('--pool <poolId>', 'the new pool')
    .addHelpText('after', examples('proxyctl units swap PRX-123 --pool US-14', 'proxyctl units swap PRX-123 --pool US-14 -o conn'))
    .action(lazyAction(rt, () => import('./swap.js')));

  units
    .command('change-protocol')
    .description('switch a unit between socks5, http and http_noauth (free)')
    .argument('<ref>', 'unit reference')
    .requiredOption('--protocol <protocol>', 'socks5, http, http_noauth (alias inject)')
    .option('--allow-ip <ipv4>', 'the client IP for http_noauth (exactly one)', collect)
    .option('--username <name>', 'new username for socks5/http (with --password)')
    .option('--password <password>', 'new password for socks5/http (with --username)')
    .addHelpText('after', examples('proxyctl units change-protocol PRX-123 --protocol http', 'proxyctl units change-protocol PRX-123 --protocol inject --allow-ip 203.0.113.7'))
    .action(lazyAction(rt, () => import('./change-protocol.js')));

  units
    .command('modify')
    .description("change a unit's description, credentials or IP whitelist")
    .argument('<ref>', 'unit reference')
    .option('--description <text>', 'free text kept with the unit')
    .option('--allow-ip <ipv4>', 'whitelisted IP (repeat; replaces the list; http_noauth units)', collect)
    .option('--username <name>', 'new username (with --password)')
    .option('--password <password>', 'new password (with --username)')
    .addHelpText('after', examples('proxyctl units modify PRX-123 --description "client A"', 'proxyctl units modify PRX-123 --allow-ip 203.0.113.7 --allow-ip 203.0.113.8'))
    .action(lazyAction(rt, () => import('./modify.js')));

  units
    .command('release')
    .alias('rm')
    .description('delete units permanently (no refund); asks first, or needs --yes without a terminal')
    .argument('<refs...>', 'unit references')
    .addHelpText('after', examples('proxyctl units release PRX-123', 'proxyctl units release PRX-1 PRX-2 --yes'))
    .action(lazyAction(rt, () => import('./release.js')));

  units
    .command('usage')
    .description("a unit's traffic against its quota")
    .argument('<ref>', 'unit reference')
    .addHelpText('after', examples('proxyctl units usage PRX-123', 'proxyctl units usage PRX-123 --json'))
    .action(lazyAction(rt, () => import('./usage.js')));
}
