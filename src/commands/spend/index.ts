// `proxyctl spend` (the ledger read back) and `proxyctl spend holds` beside it.
import holds from './holds.command.js';
import spend from './spend.command.js';

export default { ...spend, subcommands: [holds] };
