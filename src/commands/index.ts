// Every command, in help order: one line per group or top-level verb. A group's own index.ts
// lists its verbs; each verb is a definition in its <verb>.command.ts (see action.ts).
import type { AnyDefinition } from './action.js';
import { raw } from './api/index.js';
import { catalogue } from './catalogue/index.js';
import completion from './completion/print.command.js';
import config from './config/index.js';
import { session } from './login/index.js';
import { account, me } from './me/index.js';
import pools from './pools/index.js';
import profiles from './profiles/index.js';
import sandbox from './sandbox/index.js';
import units from './units/index.js';
import webhook from './webhook/index.js';

export const commands: readonly AnyDefinition[] = [
  ...session,
  profiles,
  config,
  me,
  account,
  ...catalogue,
  pools,
  units,
  webhook,
  ...raw,
  completion,
  sandbox,
];
