import { Argument, Command } from '../commander.js';
import { defineCommand, type InputOf } from '../action.js';

const command = () =>
  new Command('completion')
    .description('print the shell completion script')
    .addArgument(new Argument('<shell>', 'shell to complete for').choices(['bash', 'zsh', 'fish'] as const));
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  examples: [
    'proxyctl completion bash > /etc/bash_completion.d/proxyctl',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell example, expanded by zsh
    'proxyctl completion zsh > "${fpath[1]}/_proxyctl"',
    'proxyctl completion fish > ~/.config/fish/completions/proxyctl.fish',
  ],
  load: async () => (await import('./print.js')).default,
});
