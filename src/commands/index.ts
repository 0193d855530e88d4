// Every command, in help order, under the headings of `proxyctl --help` (commander's help
// groups): one line per noun or top-level verb. A noun's own index.ts lists its verbs; each verb
// is a definition in its <verb>.command.ts (see action.ts).
import { type AnyDefinition, inGroup } from '../kit/action.js';
import { raw } from './api/index.js';
import { catalogue } from './catalogue/index.js';
import completion from './completion/print.command.js';
import config from './config/index.js';
import customers from './customers/index.js';
import help from './help/help.command.js';
import { session } from './login/index.js';
import mcp from './mcp/index.js';
import { account, me } from './me/index.js';
import pools from './pools/index.js';
import profiles from './profiles/index.js';
import sandbox from './sandbox/index.js';
import spend from './spend/index.js';
import ledger from './ledger/index.js';
import status from './status/status.command.js';
import units from './units/index.js';
import webhook from './webhook/index.js';

export const commands: readonly AnyDefinition[] = [
  ...inGroup('Units', [units]),
  ...inGroup('Catalogue', [...catalogue, pools]),
  ...inGroup('Account', [me, account, status, spend, customers, ledger]),
  ...inGroup('Webhooks', [webhook]),
  ...inGroup('Sandbox', [sandbox]),
  ...inGroup('Setup', [...session, profiles, config, completion]),
  ...inGroup('Tooling', [...raw, mcp, help]),
];
