// What `proxyctl providers | countries | states` share: plain collections. Entry field names of countries
// and states are not fixed by the spec, so tables show whatever fields arrive, and csv has the
// known names first, then every other field of any entry.
import { listCatalogue } from '../../api/endpoints.js';
import { showList, type Shown } from '../../kit/action.js';
import type { Context } from '../../context/index.js';
import type { Query } from '../../api/index.js';
import { withExtraFieldNames, withSpinner } from '../../output/index.js';
import { byCountry } from '../../kit/country.js';
import { catalogueSeen, remember } from '../../kit/remember.js';

export async function fetchCollection(ctx: Context, path: string, query: Query = {}): Promise<unknown[]> {
  const api = await ctx.api();
  const country = typeof query.country === 'string' ? query.country : undefined;
  return byCountry(ctx, api, country, async () => {
    const body = await withSpinner(ctx, 'Fetching…', () => listCatalogue(api, path, query));
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

/** One collection as a list to print, its values remembered for TAB. */
export async function showCollection(ctx: Context, path: keyof typeof FIELDS, query: Query, empty: string): Promise<Shown> {
  const rows = await fetchCollection(ctx, path, query);
  await remember(ctx, catalogueSeen(rows));
  return showList(rows, { empty, fields: withExtraFieldNames(FIELDS[path], rows) });
}
