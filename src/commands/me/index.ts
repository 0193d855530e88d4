// `proxyctl me …` and `proxyctl account`: one line per verb; definitions in <verb>.command.ts.
import { Command } from '../../kit/commander.js';
import { defineCommand } from '../../kit/action.js';
import account from './account.command.js';
import show from './show.command.js';
import uptime from './uptime.command.js';
import usernameClear from './username-clear.command.js';
import usernameSet from './username-set.command.js';

const username = defineCommand({
  command: () => new Command('username').description('the fixed proxy username used for units created from now on'),
  subcommands: [usernameSet, usernameClear],
});

export const me = { ...show, subcommands: [uptime, username] };
export { account };
