// `proxyctl me username set NAME`: pins one proxy username for the units created afterwards.
import { show, type Result } from '../../kit/action.js';
import type { Input } from './username-set.command.js';
import { checkProxyUsername, pinProxyUsername } from './username.js';

export default async function handler({ args: [name], ctx }: Input): Promise<Result> {
  return show(await pinProxyUsername(checkProxyUsername(name), ctx));
}
