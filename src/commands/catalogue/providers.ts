// `proxyctl providers`: the carriers, with their pool counts.
import type { Result } from '../../kit/action.js';
import type { Input } from './providers.command.js';
import { showCollection } from './lists.js';

export default async function handler({ ctx }: Input): Promise<Result> {
  return showCollection(ctx, '/providers', {}, 'No providers.');
}
