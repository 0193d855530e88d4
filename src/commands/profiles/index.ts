// `proxyctl profiles …`: one line per verb; definitions in <verb>.command.ts.
import { Command } from '../../kit/commander.js';
import { defineCommand } from '../../kit/action.js';
import list from './list.command.js';
import migrate from './migrate.command.js';
import remove from './remove.command.js';
import use from './use.command.js';

export default defineCommand({
  command: () =>
    new Command('profiles').description(
      'list, switch and remove stored profiles (keys shown masked), and move their keys into the OS keyring',
    ),
  subcommands: [list, use, remove, migrate],
});
