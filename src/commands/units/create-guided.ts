// The guided purchase in a terminal: country (typed ahead, by code or name) → pool → period →
// protocol → how many → for which customer, then the price and the balance after purchase, the
// budget's verdict, and a last confirmation. Flags already given are kept, not asked again.
// The answers become the same flags `units create --pool … --period …` takes, validated by the
// same parseCreateFlags and priced by the same quote (planPurchase), which refuses a pool that is
// not available.
import type { ApiClient } from '../../api/client.js';
import type { Prices } from '../../api/shapes.js';
import type { Context } from '../../context/index.js';
import type { Prompter } from '../../context/prompt.js';
import { UsageError } from '../../errors.js';
import { escapeControl, money } from '../../output/index.js';
import { isComplete, parseCreateFlags, type CreateFlags, type CreateInput, type PartialCreateInput } from '../../units/create-input.js';
import { assertAffordable, availablePool, planPurchase, type PurchasePlan, type Quote } from '../../units/quote.js';
import type { CreateBody, Pool } from '../../units/types.js';
import { entryCountryCode } from '../../units/catalogue-ids.js';
import { parseIPv4, type Protocol } from '../../units/validate.js';
import { CHARGES, confirmCharge, periodChoices, poolChoice, poolWhere, printQuote, PROTOCOL_CHOICES, validateWith } from './ask.js';
import { listCatalogue, listPools } from '../../api/endpoints.js';
import { cheapestPoolAt, describePick, poolsAt, type Place } from '../../units/cheapest.js';
import { catalogueSeen, remember } from '../../kit/remember.js';
import { countryName, matchCountries } from '../../kit/country.js';
import { parseInteger } from '../../kit/options.js';
import { MAX_COUNT } from '../../units/validate.js';
import { parseCustomer } from '../../ledger/customer.js';
import { budgetVerdict } from '../../ledger/verdict.js';

export async function guidedCreate(
  ctx: Context,
  flags: CreateFlags,
  parsed: PartialCreateInput,
  place?: Place,
): Promise<{ input: CreateInput; plan: PurchasePlan }> {
  // Ctrl-C inside a prompt: nothing was bought (exit 130).
  const prompts = await ctx.prompt.open({
    unavailable: new UsageError('the guided purchase needs a terminal'),
    cancelled: CHARGES.buy.cancelled,
  });
  const api = await ctx.api();
  const body = { ...parsed.body };
  const answers: CreateFlags = { ...flags };
  const each = parsed.count > 1;
  const prices = await choosePool(ctx, api, prompts, body, each, place);
  answers.pool = body.poolId;
  body.period ??= await prompts.select({
    message: 'Period',
    choices: periodChoices(prices, each),
  });
  await askProtocol(prompts, body, answers);
  answers.period = body.period;
  await askCountAndCustomer(prompts, answers);
  // The answers, checked exactly as the same flags on the command line would be.
  const chosen = parseCreateFlags(answers);
  if (!isComplete(chosen)) throw new UsageError('--pool and --period are required');
  const plan = await planPurchase(api, chosen);
  await checkBeforeAsking(ctx, chosen, plan.quote);
  if (!chosen.dryRun && plan.quote.balanceAfter >= 0 && !ctx.globals.yes) {
    // Declined: exit 2 (the contract's "refused confirmation"), not a success that bought nothing.
    await confirmCharge(prompts.confirm, 'buy', plan.quote);
  }
  return { input: chosen, plan };
}

/** Pools seen on the way to the pool, and the list's own prices, for the period's choices. */
interface Found {
  pools: Pool[];
  listPrices: Prices | undefined;
}

/**
 * Settles body.poolId: the pool given by flag, --country's cheapest (the period asked first), or a
 * country and a pool asked for. Returns the prices to show beside the periods.
 */
async function choosePool(
  ctx: Context,
  api: ApiClient,
  prompts: Prompter,
  body: Partial<CreateBody>,
  each: boolean,
  place: Place | undefined,
): Promise<Prices | undefined> {
  // A pool given by flag is checked before anything is asked, as the flag-driven create would.
  const given = body.poolId === undefined ? undefined : await availablePool(api, body.poolId);
  if (given) await remember(ctx, catalogueSeen([given]));
  let found: Found | undefined;
  if (place) {
    // --country: the period first (the list's prices), then the cheapest pool for it, said before
    // anything else is asked.
    const at = await poolsAt(api, place);
    body.period ??= await prompts.select({ message: 'Period', choices: periodChoices(at.prices, each) });
    const pick = await cheapestPoolAt(api, place, body.period, at);
    await remember(ctx, catalogueSeen(pick.pools));
    ctx.notice(`Pool: ${describePick(pick, place, body.period)}`);
    body.poolId = pick.pool.poolId;
    found = { pools: pick.pools, listPrices: at.prices };
  } else if (body.poolId === undefined) {
    const country = await askCountry(ctx, api, prompts);
    found = await poolsIn(ctx, api, country);
    body.poolId = await askPool(prompts, found, body.period ?? '30d');
  }
  return given ? given.prices : (found?.pools.find((p) => p.poolId === body.poolId)?.prices ?? found?.listPrices);
}

/** The countries the server lists, typed ahead by code or name. */
async function askCountry(ctx: Context, api: ApiClient, { search }: Prompter): Promise<string> {
  const countries = (await listCatalogue(api, '/countries')).data;
  await remember(ctx, catalogueSeen(countries));
  const entries = countries.flatMap((c) => {
    const code = entryCountryCode(c);
    if (!code) return [];
    // The server's name where it gives one, else the one Node knows, so "ger" finds DE either way.
    const name = typeof c.name === 'string' && c.name !== '' && c.name !== code ? c.name : countryName(code);
    const n = typeof c.poolCount === 'number' ? ` (${c.poolCount} pools)` : '';
    return [{ code, name, label: escapeControl(`${code}${name ? ` ${name}` : ''}${n}`) }];
  });
  if (entries.length === 0) throw new UsageError('the server lists no countries; pass --pool instead');
  return search({
    message: 'Country (type a code or a name)',
    pageSize: 15,
    source: (typed) => matchCountries(entries, typed).map((e) => ({ name: e.label, value: e.code })),
  });
}

async function poolsIn(ctx: Context, api: ApiClient, country: string): Promise<Found> {
  const res = await listPools(api, { country });
  const pools = res.data ?? [];
  await remember(ctx, catalogueSeen(pools));
  if (pools.length === 0) throw new UsageError(`no pools in ${country}`);
  return { pools, listPrices: res.prices };
}

/** One of the country's pools, each with its price for `period` (the one given, else 30d). */
function askPool({ select }: Prompter, { pools, listPrices }: Found, period: string): Promise<string> {
  return select({
    message: 'Pool',
    pageSize: 15,
    choices: pools.map((p) => poolChoice(p, `${p.poolId}  ${poolWhere(p)}  ${money((p.prices ?? listPrices)?.[period])}/${period}`)),
  });
}

/** The protocol unless given; http_noauth also needs the one client IP it lets in. */
async function askProtocol({ select, input }: Prompter, body: Partial<CreateBody>, answers: CreateFlags): Promise<void> {
  if (body.protocol !== undefined) return;
  const protocol = await select<Protocol>({
    message: 'Protocol',
    choices: PROTOCOL_CHOICES,
  });
  answers.protocol = protocol;
  if (protocol !== 'http_noauth') return;
  if (body.credentials) throw new UsageError('http_noauth units have no credentials: drop --username/--password');
  const ip = await input({
    message: 'Client IPv4 allowed to connect',
    validate: validateWith(parseIPv4),
  });
  answers.allowIp = [ip];
}

/** How many and for whom: checked as --count and --customer are, asked again until they pass. */
async function askCountAndCustomer({ input }: Prompter, answers: CreateFlags): Promise<void> {
  answers.count ??= (
    await input({
      message: `How many units (1 to ${MAX_COUNT})`,
      default: '1',
      validate: validateWith((v) => parseInteger(v, 'the number of units', 1, MAX_COUNT)),
      theme: { validationFailureMode: 'clear' },
    })
  ).trim();
  if (answers.customer !== undefined) return;
  const customer = (
    await input({
      message: 'For which customer (Enter for none)',
      validate: (v) => v.trim() === '' || validateWith((name) => parseCustomer(name, 'a customer'))(v.trim()),
      theme: { validationFailureMode: 'clear' },
    })
  ).trim();
  if (customer !== '') answers.customer = customer;
}

/**
 * The price and the balance after it, then what would refuse the purchase: the balance (exit 6)
 * or the profile's budget or policy (exit 12), now rather than after a "yes", and in the order the
 * flags' path checks them.
 */
async function checkBeforeAsking(ctx: Context, chosen: CreateInput, q: Quote): Promise<void> {
  const what = `${q.count} × ${chosen.body.period} in ${chosen.body.poolId} (${chosen.body.protocol ?? 'socks5'})`;
  printQuote(ctx, q, what);
  if (chosen.dryRun) return;
  assertAffordable(q, what);
  const verdict = await budgetVerdict(await ctx.ledger(), {
    cost: () => q.total,
    period: chosen.body.period,
    poolIds: [chosen.body.poolId],
  });
  if (verdict?.error) throw verdict.error;
}
