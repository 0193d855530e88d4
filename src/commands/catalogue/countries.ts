// `proxyctl countries`: the countries with pools, and their pool counts.
import type { Result } from '../../kit/action.js';
import type { Input } from './countries.command.js';
import { showCollection } from './lists.js';

export default async function handler({ ctx }: Input): Promise<Result> {
  return showCollection(ctx, '/countries', {}, 'No countries.');
}
