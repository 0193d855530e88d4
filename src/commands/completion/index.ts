import { Argument, type Command } from 'commander';
import { examples, lazyAction, type Runtime } from '../action.js';

export function registerCompletion(program: Command, rt: Runtime): void {
  program
    .command('completion')
    .description('print the shell completion script')
    .addArgument(new Argument('<shell>', 'shell to complete for').choices(['bash', 'zsh', 'fish']))
    .addHelpText(
      'after',
      examples(
        'proxyctl completion bash > /etc/bash_completion.d/proxyctl',
        'proxyctl completion zsh > "${fpath[1]}/_proxyctl"',
        'proxyctl completion fish > ~/.config/fish/completions/proxyctl.fish',
      ),
    )
    .action(lazyAction(rt, () => import('./print.js')));
}
