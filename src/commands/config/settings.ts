// `config set|get|unset KEY`: one setting of the profile in use (--profile, PROXYCTL_PROFILE, else
// the current one), written through the locked config store so parallel processes never lose one.
import type { Context } from '../../context/index.js';
import type { Profile, ProfileSetting } from '../../config/store.js';
import type { SettingsSource } from '../../ledger/index.js';
import { profileInUse } from '../../context/credentials.js';
import { UsageError } from '../../errors.js';
import { parseTargetUrl } from '../../units/check-target.js';
import { parseUsd } from '../../units/quote.js';
import { parsePeriod } from '../../units/validate.js';
import { countryCode } from '../../kit/country.js';
import { markupText, parseMarkup } from '../../ledger/billing.js';
import { parseLedgerUrl } from '../../ledger/shared-url.js';

type Value = string | number | string[];

interface Key {
  field: ProfileSetting;
  /** The value as typed, checked (exit 2 naming the key when it is not one). */
  parse: (v: string) => Value;
  /** The stored value as typed back (default: shown()). */
  show?: (v: unknown) => string;
  /** A money setting: with a shared ledger it is the team's, kept in the database (settingsSource). */
  team?: boolean;
}

/** A comma-separated list, each item checked; at least one. */
function list(key: string, item: (v: string) => string): (v: string) => string[] {
  return (v) => {
    const items = v
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x !== '');
    if (items.length === 0) throw new UsageError(`${key} needs at least one value (comma-separated)`);
    return [...new Set(items.map(item))];
  };
}

/** The keys as typed, their field in the profile, and how a value is checked. */
const KEYS: Record<string, Key> = {
  'check-target': { field: 'checkTarget', parse: (v) => parseTargetUrl(v, 'check-target').href },
  'max-spend-per-run': { field: 'maxSpendPerRun', parse: (v) => parseUsd(v, 'max-spend-per-run') as number, team: true },
  'max-spend-per-day': { field: 'maxSpendPerDay', parse: (v) => parseUsd(v, 'max-spend-per-day') as number, team: true },
  'allowed-periods': { field: 'allowedPeriods', parse: list('allowed-periods', (p) => parsePeriod(p)), team: true },
  'allowed-countries': {
    field: 'allowedCountries',
    parse: list('allowed-countries', (c) => countryCode(c, 'allowed-countries') as string),
    team: true,
  },
  'default-markup': {
    field: 'defaultMarkupPercent',
    parse: (v) => parseMarkup(v, 'default-markup'),
    show: (v) => (typeof v === 'number' ? markupText(v) : String(v)),
    team: true,
  },
  // Set and shown by its own code (set.ts, get.ts): the password goes where API keys go.
  'ledger-url': { field: 'ledgerUrl', parse: (v) => parseLedgerUrl(v, 'ledger-url').href },
};

export const KEY_NAMES = Object.keys(KEYS);

/** A stored value as `config get` prints it: a list comma-separated, an amount as typed. */
export function shown(value: unknown): string {
  return Array.isArray(value) ? value.join(',') : String(value);
}

export function keyOf(raw: string) {
  const k = KEYS[raw];
  if (!k) throw new UsageError(`unknown setting "${raw}" (known: ${Object.keys(KEYS).join(', ')})`);
  return k;
}

/** The config store and the name of the profile in use. */
export async function profileOf(ctx: Context) {
  const store = await ctx.config();
  return { store, name: profileInUse(ctx, store) };
}

/**
 * What a profile holds besides its key, named as `config get` names it (`base URL …`,
 * `max-spend-per-day 50`, `allowed-countries US`), and anything else a command keeps there by its
 * field's name: what logout keeps and `profiles remove` forgets.
 */
export function profileSettings(p: Profile): string[] {
  const out: string[] = [];
  const told = new Set<string>(['baseUrl', 'apiKey', 'apiKeyRef', 'disabledWebhook', 'ledgerPassword', 'ledgerPasswordRef']);
  if (p.baseUrl) out.push(`base URL ${p.baseUrl}`);
  for (const [name, k] of Object.entries(KEYS)) {
    told.add(k.field);
    const v = p[k.field];
    if (v !== undefined) out.push(`${name} ${shown(v)}`);
  }
  if (p.disabledWebhook) out.push(`the disabled webhook ${p.disabledWebhook.url}`);
  for (const [field, v] of Object.entries(p)) if (!told.has(field) && v !== undefined) out.push(field);
  return out;
}

/** The team's settings when the profile uses a shared ledger; undefined for a profile of one machine. */
export async function teamSettings(ctx: Context): Promise<SettingsSource | undefined> {
  const { moneySettings } = await import('../../context/prices.js');
  const settings = await moneySettings(ctx);
  return settings.shared ? settings : undefined;
}
