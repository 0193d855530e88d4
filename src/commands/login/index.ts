// `proxyctl login|logout`: one line per verb; definitions in <verb>.command.ts.
import login from './login.command.js';
import logout from './logout.command.js';

export const session = [login, logout];
