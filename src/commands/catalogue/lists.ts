// `proxyctl providers | countries | states`: plain collections. Entry field names of countries
// and states are not fixed by the spec, so tables show whatever fields arrive, and csv has the
// known names first, then every other field of any entry.
import { showList, type Result } from '../action.js';
import type { Input as ProvidersInput } from './providers.command.js';
import type { Input as CountriesInput } from './countries.command.js';
import type { Input as StatesInput } from './states.command.js';
import type { Context } from '../../context/index.js';
import type { Query } from '../../api/index.js';
import { assertFormats, withExtraFieldNames, withSpinner } from '../../output/index.js';
import { byCountry, countryCode } from '../country.js';
import * as shapes from '../../api/shapes.js';
import { catalogueValues, remember } from '../completion/remember.js';

export async function fetchCollection(ctx: Context, path: string, query: Query = {}): Promise<unknown[]> {
  const api = await ctx.api();
  const country = typeof query.country === 'string' ? query.country : undefined;
  return byCountry(ctx, api, country, async () => {
    const body = await withSpinner(ctx, 'Fetching…', () => api.get(path, shapes.catalogueList, query));
    if (Array.isArray(body)) return body;
    return Array.isArray(body?.data) ? body.data : [];
  });
}

/** The csv columns each collection always has (spec 2.7; the sandbox's names for countries and states). */
const FIELDS = {
  '/providers': ['provider', 'poolCount'],
  '/countries': ['country', 'name', 'poolCount'],
  '/states': ['country', 'state', 'poolCount'],
} as const;

async function show(ctx: Context, path: keyof typeof FIELDS, query: Query, empty: string): Promise<Result> {
  const rows = await fetchCollection(ctx, path, query);
  await remember(ctx, { add: catalogueValues(rows) });
  return showList(rows, { empty, fields: withExtraFieldNames(FIELDS[path], rows) });
}

export function providers({ ctx }: ProvidersInput): Promise<Result> {
  assertFormats(ctx, ['table', 'json', 'jsonl', 'csv']);
  return show(ctx, '/providers', {}, 'No providers.');
}

export function countries({ ctx }: CountriesInput): Promise<Result> {
  assertFormats(ctx, ['table', 'json', 'jsonl', 'csv']);
  return show(ctx, '/countries', {}, 'No countries.');
}

export async function states({ flags, ctx }: StatesInput): Promise<Result> {
  assertFormats(ctx, ['table', 'json', 'jsonl', 'csv']);
  const country = countryCode(flags.country);
  return show(ctx, '/states', { country }, country ? `No states with pools in ${country}.` : 'No states.');
}
