import { Argument, type Command } from 'commander';
import { examples, lazyAction, type Runtime } from '../action.js';

export function registerProfiles(program: Command, rt: Runtime): void {
  const profiles = program.command('profiles').description('list, switch and remove stored profiles (keys shown masked)');
  profiles
    .command('list', { isDefault: true })
    .alias('ls')
    .description('list stored profiles; marks the one this invocation uses (--profile, PROXYCTL_PROFILE or the current one) and says why')
    .addHelpText('after', examples('proxyctl profiles list', 'proxyctl profiles list --json'))
    .action(lazyAction(rt, () => import('./list.js')));
  profiles
    .command('use')
    .description('make a stored profile the current one')
    .addArgument(new Argument('<name>', 'profile name'))
    .addHelpText('after', examples('proxyctl profiles use work'))
    .action(lazyAction(rt, () => import('./use.js')));
  profiles
    .command('remove')
    .alias('rm')
    .description('delete a stored profile and its key')
    .addArgument(new Argument('<name>', 'profile name'))
    .addHelpText('after', examples('proxyctl profiles remove old-account'))
    .action(lazyAction(rt, () => import('./remove.js')));
}
