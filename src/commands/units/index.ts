// `proxyctl units …`: one line per verb; each verb's definition is in its <verb>.command.ts.
import { Command } from '../../kit/commander.js';
import { defineCommand } from '../../kit/action.js';
import changeProtocol from './change-protocol.command.js';
import check from './check.command.js';
import create from './create.command.js';
import extend from './extend.command.js';
import get from './get.command.js';
import list from './list.command.js';
import modify from './modify.command.js';
import release from './release.command.js';
import swap from './swap.command.js';
import usage from './usage.command.js';

export default defineCommand({
  command: () => new Command('units').description('buy, list, extend, swap and release proxy units'),
  subcommands: [list, get, create, extend, swap, changeProtocol, modify, release, usage, check],
});
