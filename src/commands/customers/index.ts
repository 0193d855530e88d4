// `proxyctl customers …`: the list (also what `proxyctl customers` alone runs), one customer, its
// statements for billing, and its prices; definitions in <verb>.command.ts.
import { Command } from '../../kit/commander.js';
import { defineCommand } from '../../kit/action.js';
import list from './list.command.js';
import set from './set.command.js';
import show from './show.command.js';
import statement from './statement.command.js';
import unset from './unset.command.js';

export default defineCommand({
  command: () => new Command('customers').description('what each customer costs, is billed and earns; their prices and monthly statements'),
  subcommands: [list, show, statement, set, unset],
});
