// `proxyctl sandbox` (serve the local API) and its helpers that talk to a running sandbox:
// one line per verb; definitions in <verb>.command.ts.
import advance from './advance.command.js';
import serve from './serve.command.js';
import state from './state.command.js';
import trigger from './trigger.command.js';

export default { ...serve, subcommands: [trigger, advance, state] };
