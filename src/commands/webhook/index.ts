// `proxyctl webhook …`: one line per verb; definitions in <verb>.command.ts.
import { Command } from '../../kit/commander.js';
import { defineCommand } from '../../kit/action.js';
import del from './delete.command.js';
import disable from './disable.command.js';
import enable from './enable.command.js';
import get from './get.command.js';
import listen from './listen.command.js';
import log from './log.command.js';
import set from './set.command.js';
import test from './test.command.js';
import verify from './verify.command.js';

export default defineCommand({
  command: () => new Command('webhook').description('configure, test, inspect and receive webhook deliveries'),
  examples: ['proxyctl webhook listen --forward-to http://localhost:3000/hooks', 'proxyctl webhook log --follow'],
  subcommands: [get, set, enable, disable, del, test, log, verify, listen],
});
