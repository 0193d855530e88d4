// `proxyctl me username clear`: new units get a random login again.
import { show, type Result } from '../../kit/action.js';
import type { Input } from './username-clear.command.js';
import { pinProxyUsername } from './username.js';

export default async function handler({ ctx }: Input): Promise<Result> {
  return show(await pinProxyUsername(null, ctx));
}
