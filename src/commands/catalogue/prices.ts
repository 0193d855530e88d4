// `proxyctl prices`: GET /prices. JSON is the API's object; tables show one row per period.
import { getPriceList } from '../../api/endpoints.js';
import type { Input } from './prices.command.js';
import { show, showList, type Result } from '../../kit/action.js';
import type { Context } from '../../context/index.js';
import { money, outputMode, periodOrder, withSpinner } from '../../output/index.js';
import type * as shapes from '../../api/shapes.js';

export type PricesResponse = shapes.PriceList;

async function fetchPrices(ctx: Context): Promise<PricesResponse> {
  const api = await ctx.api();
  return withSpinner(ctx, 'Fetching prices…', () => getPriceList(api));
}

export function priceRows(prices: Record<string, unknown> | undefined): { period: string; price: unknown }[] {
  const p = prices ?? {};
  return periodOrder(p).map((period) => ({ period, price: p[period] }));
}

export default async function handler({ ctx }: Input): Promise<Result> {
  const body = await fetchPrices(ctx);
  const mode = outputMode(ctx);
  if (mode === 'json' || mode === 'jsonl' || !body.prices || typeof body.prices !== 'object') return show(body);
  return showList(priceRows(body.prices), {
    columns: [
      { header: 'period', value: (r) => r.period },
      { header: 'price', value: (r) => r.price, format: (r) => (typeof r.price === 'number' ? money(r.price) : String(r.price ?? '-')) },
    ],
    fields: ['period', 'price'],
    empty: 'The price schedule is empty.',
  });
}
