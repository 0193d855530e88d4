// `proxyctl sandbox state`: the whole server-side state, for scripts and debugging.
import type { Input } from './state.command.js';
import { callControl } from './control-client.js';

export default async function state({ ctx }: Input): Promise<number> {
  const r = await callControl(ctx, 'GET', 'state');
  ctx.io.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
  return 0;
}
