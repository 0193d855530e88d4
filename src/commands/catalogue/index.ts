import { type Command } from 'commander';
import { examples, lazyAction, type Runtime } from '../action.js';

export function registerCatalogue(program: Command, rt: Runtime): void {
  program
    .command('prices')
    .description('price schedule per period, after your discount')
    .addHelpText('after', examples('proxyctl prices', 'proxyctl prices --json | jq ".prices[\\"7d\\"]"'))
    .action(lazyAction(rt, () => import('./prices.js')));
  program
    .command('providers')
    .description('carriers with their pool counts')
    .addHelpText('after', examples('proxyctl providers', 'proxyctl providers -o csv'))
    .action(lazyAction(rt, () => import('./lists.js').then((m) => ({ default: m.providers }))));
  program
    .command('countries')
    .description('countries with pools, and their pool counts')
    .addHelpText('after', examples('proxyctl countries', 'proxyctl countries --json'))
    .action(lazyAction(rt, () => import('./lists.js').then((m) => ({ default: m.countries }))));
  program
    .command('states')
    .description('states/regions with pools, optionally in one country')
    .option('--country <cc>', 'ISO 3166-1 alpha-2 country code, e.g. US')
    .addHelpText('after', examples('proxyctl states', 'proxyctl states --country us'))
    .action(lazyAction(rt, () => import('./lists.js').then((m) => ({ default: m.states }))));
}
