// `proxyctl profiles list`: never prints a key, only its masked form.
import type { HandlerInput } from '../action.js';
import type { Context } from '../../context.js';
import { assertFormats, printList } from '../../output/index.js';
import { DEFAULT_PROFILE, maskKey } from '../../config/store.js';

export interface ProfileRow {
  name: string;
  current: boolean;
  baseUrl: string | null;
  apiKey: string;
}

export async function run(ctx: Context): Promise<ProfileRow[]> {
  const store = await ctx.config();
  const current = store.currentProfile() ?? DEFAULT_PROFILE;
  return Object.entries(store.profiles())
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, p]) => ({ name, current: name === current, baseUrl: p.baseUrl ?? null, apiKey: maskKey(p.apiKey) }));
}

export default async function list({ ctx }: HandlerInput): Promise<number> {
  assertFormats(ctx, ['table', 'json', 'jsonl', 'csv']);
  const rows = await run(ctx);
  await printList(ctx, rows, {
    columns: [
      { header: '', value: (r) => (r.current ? '*' : ''), format: (r, p) => (r.current ? p.green('*') : '') },
      { header: 'name', value: (r) => r.name, format: (r, p) => (r.current ? p.bold(r.name) : r.name) },
      { header: 'base url', value: (r) => r.baseUrl },
      { header: 'api key', value: (r) => r.apiKey },
    ],
    empty: 'No profiles stored. Run proxyctl login.',
  });
  return 0;
}
