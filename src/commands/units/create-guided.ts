// The guided purchase in a terminal: country → pool → period → protocol, then the price and the
// balance after purchase, and a last confirmation. Flags already given are kept, not asked again.
import type { Context } from '../../context/index.js';
import { UsageError } from '../../errors.js';
import { escapeControl, money } from '../../output/index.js';
import { describeQuote, priceFor, quote, type Quote } from '../../units/quote.js';
import type { CreateBody } from '../../units/types.js';
import { PERIODS, parseIPv4, type Protocol } from '../../units/validate.js';
import type { CreateOptions } from './create.js';
import * as shapes from '../../api/shapes.js';

interface PoolRow {
  poolId: string;
  provider?: string;
  country?: string;
  state?: string | null;
  rotation?: string | null;
  available?: boolean;
  prices?: Record<string, number>;
}

type Entry = Record<string, unknown>;

/** Country entries' field names are not in the spec: take the ISO-looking code wherever it is. */
function countryCode(e: Entry): string | undefined {
  for (const k of ['country', 'code', 'countryCode', 'iso']) if (typeof e[k] === 'string') return e[k] as string;
  return Object.values(e).find((v): v is string => typeof v === 'string' && /^[A-Z]{2}$/.test(v));
}

export async function guidedCreate(
  ctx: Context,
  parsed: Omit<CreateOptions, 'body'> & { body: Partial<CreateBody> },
): Promise<{ opts: CreateOptions; quote: Quote }> {
  // Ctrl-C inside a prompt: nothing was bought (exit 130).
  const { select, input, confirm } = await ctx.prompt.open({
    unavailable: new UsageError('the guided purchase needs a terminal'),
    cancelled: 'cancelled; nothing was bought',
  });
  const api = await ctx.api();
  const body = { ...parsed.body };
  let pools: PoolRow[] = [];
  let listPrices: Record<string, number> | undefined;
  if (body.poolId === undefined) {
    const countries = (await api.get<{ data: Entry[] }>('/countries', shapes.catalogueList)).data;
    const choices = countries.flatMap((c) => {
      const code = countryCode(c);
      if (!code) return [];
      const name = typeof c.name === 'string' && c.name !== code ? ` ${c.name}` : '';
      const n = typeof c.poolCount === 'number' ? ` (${c.poolCount} pools)` : '';
      return [{ name: escapeControl(`${code}${name}${n}`), value: code }];
    });
    if (choices.length === 0) throw new UsageError('the server lists no countries; pass --pool instead');
    const country = await select({ message: 'Country', choices, pageSize: 15 });
    const res = await api.get<{ data: PoolRow[]; prices?: Record<string, number> }>('/pools', shapes.poolList, { country });
    pools = res.data ?? [];
    listPrices = res.prices;
    if (pools.length === 0) throw new UsageError(`no pools in ${country}`);
    const hint = body.period ?? '30d';
    body.poolId = await select(
      {
        message: 'Pool',
        pageSize: 15,
        choices: pools.map((p) => {
          const price = (p.prices ?? listPrices)?.[hint];
          const where = [p.provider, p.state, p.rotation ? `rotation ${p.rotation}` : 'no rotation'].filter(Boolean).join(', ');
          return {
            name: escapeControl(`${p.poolId}  ${where}  ${money(price)}/${hint}`),
            value: p.poolId,
            // The prompt prints this after the name, so the name itself does not say it again.
            disabled: p.available === false ? '(unavailable)' : false,
          };
        }),
      },
    );
  }
  let prices = (pools.find((p) => p.poolId === body.poolId)?.prices ?? listPrices) as Record<string, number> | undefined;
  if (!prices) prices = (await api.get<PoolRow>(`/pools/${encodeURIComponent(body.poolId!)}`, shapes.pool)).prices;
  body.period ??= await select(
    { message: 'Period', choices: PERIODS.map((p) => ({ name: `${p.padEnd(4)} ${money(prices?.[p])}${parsed.count > 1 ? ' each' : ''}`, value: p })) },
  );
  if (body.protocol === undefined) {
    const protocol = await select<Protocol>(
      {
        message: 'Protocol',
        choices: [
          { name: 'socks5 (username and password)', value: 'socks5' },
          { name: 'http (username and password)', value: 'http' },
          { name: 'http_noauth / inject (no login, one whitelisted IP)', value: 'http_noauth' },
        ],
      },
    );
    body.protocol = protocol;
    if (protocol === 'http_noauth') {
      if (body.credentials) throw new UsageError('http_noauth units have no credentials: drop --username/--password');
      const ip = await input({ message: 'Client IPv4 allowed to connect', validate: (v) => { try { parseIPv4(v); return true; } catch (e) { return (e as Error).message; } } });
      body.allowedIps = [parseIPv4(ip)];
    }
  }
  const full = body as CreateBody;
  const q = await quote(api, priceFor(prices, full.period, `pool ${full.poolId}`), parsed.count);
  const what = `${parsed.count} × ${full.period} in ${full.poolId} (${full.protocol ?? 'socks5'})`;
  ctx.io.stderr.write(`${escapeControl(describeQuote(q, what))}\n`);
  if (!parsed.dryRun && q.balanceAfter >= 0 && !ctx.globals.yes) {
    // Declined: exit 2 (the contract's "refused confirmation"), not a success that bought nothing.
    await confirm({ message: `Buy for ${money(q.total)}?`, default: true }, 'nothing bought: the purchase was not confirmed');
  }
  return { opts: { ...parsed, body: full }, quote: q };
}
