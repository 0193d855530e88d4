// `proxyctl prices`: GET /prices. JSON is the API's object; tables show one row per period.
import type { Input } from './prices.command.js';
import type { Context } from '../../context/index.js';
import { assertFormats, money, outputMode, printList, periodOrder, printObject, withSpinner } from '../../output/index.js';
import * as shapes from '../../api/shapes.js';

export type PricesResponse = shapes.PriceList;

export async function run(ctx: Context): Promise<PricesResponse> {
  const api = await ctx.api();
  return withSpinner(ctx, 'Fetching prices…', () => api.get('/prices', shapes.prices));
}

export function priceRows(prices: Record<string, unknown> | undefined): { period: string; price: unknown }[] {
  const p = prices ?? {};
  return periodOrder(p).map((period) => ({ period, price: p[period] }));
}

export default async function prices({ ctx }: Input): Promise<number> {
  assertFormats(ctx, ['table', 'json', 'jsonl', 'csv']);
  const body = await run(ctx);
  const mode = outputMode(ctx);
  if (mode === 'json' || mode === 'jsonl' || !body.prices || typeof body.prices !== 'object') {
    await printObject(ctx, body);
    return 0;
  }
  await printList(ctx, priceRows(body.prices), {
    columns: [
      { header: 'period', value: (r) => r.period },
      { header: 'price', value: (r) => r.price, format: (r) => (typeof r.price === 'number' ? money(r.price) : String(r.price ?? '-')) },
    ],
    fields: ['period', 'price'],
    empty: 'The price schedule is empty.',
  });
  return 0;
}
