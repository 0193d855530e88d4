// `proxyctl providers | countries | states`: plain collections. Entry field names of countries
// and states are not fixed by the spec, so tables show whatever fields arrive.
import type { HandlerInput } from '../action.js';
import type { Context } from '../../context/index.js';
import type { Query } from '../../api/index.js';
import { assertFormats, printList, withSpinner } from '../../output/index.js';
import { countryCode } from '../country.js';
import * as shapes from '../../api/shapes.js';

export async function fetchCollection(ctx: Context, path: string, query: Query = {}): Promise<unknown[]> {
  const api = await ctx.api();
  const body = await withSpinner(ctx, 'Fetching…', () => api.get<{ data: unknown[] }>(path, shapes.catalogueList, query));
  if (Array.isArray(body)) return body;
  return Array.isArray(body?.data) ? body.data : [];
}

async function show(ctx: Context, path: string, query: Query, empty: string): Promise<number> {
  const items = await fetchCollection(ctx, path, query);
  await printList(ctx, items, { empty });
  return 0;
}

export function providers({ ctx }: HandlerInput): Promise<number> {
  assertFormats(ctx, ['table', 'json', 'jsonl', 'csv']);
  return show(ctx, '/providers', {}, 'No providers.');
}

export function countries({ ctx }: HandlerInput): Promise<number> {
  assertFormats(ctx, ['table', 'json', 'jsonl', 'csv']);
  return show(ctx, '/countries', {}, 'No countries.');
}

export async function states({ flags, ctx }: HandlerInput<{ country?: string }>): Promise<number> {
  assertFormats(ctx, ['table', 'json', 'jsonl', 'csv']);
  const country = countryCode(flags.country);
  return show(ctx, '/states', { country }, country ? `No states with pools in ${country}.` : 'No states.');
}
