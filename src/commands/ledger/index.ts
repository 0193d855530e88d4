// `proxyctl ledger …`: which store the ledger uses (this machine's files, or a team's shared
// database set with `config set ledger-url`), and copying this machine's journal into the shared one.
import { Command } from '../../kit/commander.js';
import { defineCommand } from '../../kit/action.js';
import push from './push.command.js';
import status from './status.command.js';

export default defineCommand({
  command: () => new Command('ledger').description("the ledger's store: this machine's files, or the team's shared database (ledger-url)"),
  subcommands: [status, push],
});
