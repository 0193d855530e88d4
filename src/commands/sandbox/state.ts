// `proxyctl sandbox state`: the whole server-side state, for scripts and debugging.
import type { Input } from './state.command.js';
import { show, showText, type Result } from '../../kit/action.js';
import { callControl } from './control-client.js';

export default async function handler({ ctx }: Input): Promise<Result> {
  const state = await callControl(ctx, 'GET', 'state');
  // -o json (and --jq, which implies it) hand the object to the output layer to filter and print.
  return ctx.globals.output === 'json' ? show(state) : showText(JSON.stringify(state, null, 2));
}
