// `proxyctl pools …`: one line per verb; definitions in <verb>.command.ts.
import { Command } from '../../kit/commander.js';
import { defineCommand } from '../../kit/action.js';
import get from './get.command.js';
import list from './list.command.js';

export default defineCommand({
  command: () => new Command('pools').description('pools (servers) you can buy units on'),
  subcommands: [list, get],
});
