import { Argument, type Command } from 'commander';
import { examples, lazyAction, type Runtime } from '../action.js';

export function registerPools(program: Command, rt: Runtime): void {
  const pools = program.command('pools').description('pools (servers) you can buy units on');
  pools
    .command('list', { isDefault: true })
    .alias('ls')
    .description('list pools with their prices, optionally filtered (the default of "pools")')
    .option('--provider <name>', 'only this carrier')
    .option('--country <cc>', 'only this country (ISO alpha-2, e.g. US)')
    .option('--state <slug>', 'only this state/region')
    .option('--rotation <interval>', 'only this rotation interval, e.g. 10m')
    .addHelpText(
      'after',
      examples('proxyctl pools', 'proxyctl pools --country us --provider Verizon', 'proxyctl pools --json | jq -r ".[] | select(.available) | .poolId"'),
    )
    .action(lazyAction(rt, () => import('./list.js')));
  pools
    .command('get')
    .description('one pool with its prices')
    .addArgument(new Argument('<pool-id>', 'pool id, e.g. US-12'))
    .addHelpText('after', examples('proxyctl pools get US-12', 'proxyctl pools get US-12 --json'))
    .action(lazyAction(rt, () => import('./get.js')));
}
