// `proxyctl config …`: settings stored with a profile (check-target, the spending budgets and policy). The key and base URL
// stay with `login`; definitions in <verb>.command.ts.
import { Command } from '../../kit/commander.js';
import { defineCommand } from '../../kit/action.js';
import get from './get.command.js';
import set from './set.command.js';
import unset from './unset.command.js';

export default defineCommand({
  command: () =>
    new Command('config').description("settings stored with the profile: units check's default target, spending budgets and policy"),
  subcommands: [set, get, unset],
});
