import type { Command } from 'commander';
import { examples, lazyAction, type Runtime } from '../action.js';

export function registerLogin(program: Command, rt: Runtime): void {
  program
    .command('login')
    .description('save a base URL and API key as a profile, after checking the key with the API')
    .option('--api-key-stdin', 'read the API key from stdin instead of prompting')
    .addHelpText(
      'after',
      examples(
        'proxyctl login',
        'proxyctl login --profile work --base-url https://api.example.com',
        'printf %s "$KEY" | proxyctl login --base-url https://api.example.com --api-key-stdin',
      ),
    )
    .action(lazyAction(rt, () => import('./login.js')));

  program
    .command('logout')
    .description('forget the stored API key of a profile (the current one by default)')
    .addHelpText('after', examples('proxyctl logout', 'proxyctl logout --profile work'))
    .action(lazyAction(rt, () => import('./logout.js')));
}
