// `proxyctl sandbox state`: the whole server-side state, for scripts and debugging.
import type { Input } from './state.command.js';
import { showText, type Result } from '../../kit/action.js';
import { callControl } from './control-client.js';

export default async function handler({ ctx }: Input): Promise<Result> {
  return showText(JSON.stringify(await callControl(ctx, 'GET', 'state'), null, 2));
}
