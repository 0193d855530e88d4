import { Argument, Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () =>
  new Command('completion')
    .description('print the shell completion script')
    .addArgument(new Argument('<shell>', 'shell to complete for').choices(['bash', 'zsh', 'fish'] as const));
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  examples: [
    'proxyctl completion bash > ~/.local/share/bash-completion/completions/proxyctl',
    'proxyctl completion zsh > ~/.zsh/completions/_proxyctl',
    'proxyctl completion fish > ~/.config/fish/completions/proxyctl.fish',
  ],
  load: async () => (await import('./print.js')).default,
});
