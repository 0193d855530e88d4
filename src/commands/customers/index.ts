// `proxyctl customers` (the list) and its verbs beside it: set and unset prices, show one
// customer, statements for billing.
import customers from './customers.command.js';
import set from './set.command.js';
import show from './show.command.js';
import statement from './statement.command.js';
import unset from './unset.command.js';

export default { ...customers, subcommands: [show, statement, set, unset] };
