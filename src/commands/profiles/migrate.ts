// `proxyctl profiles migrate`: every key kept in the config file goes into the OS keyring.
import type { Input } from './migrate.command.js';
import type { Result } from '../../kit/action.js';
import { migrateKeys } from '../../context/stored-key.js';

export default async function handler({ ctx }: Input): Promise<Result> {
  const store = await ctx.config();
  const moved = await migrateKeys(ctx, store);
  ctx.notice(
    moved.length === 0
      ? 'No API keys in the config file; nothing to move.'
      : `Moved the API key${moved.length === 1 ? '' : 's'} of ${moved.map((n) => `"${n}"`).join(', ')} into the OS keyring; the config file no longer holds ${moved.length === 1 ? 'it' : 'them'}.`,
  );
  return 0;
}
