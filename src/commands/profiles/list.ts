// `proxyctl profiles list`: never prints a key, only its masked form, and where it lives (the OS
// keyring or the config file). Marks the profile that this invocation would use (flag >
// environment > stored current > "default"), and says why.
import { showList, type Result } from '../../kit/action.js';
import type { Input } from './list.command.js';
import type { Context } from '../../context/index.js';
import { nonEmpty } from '../../context/index.js';
import { DEFAULT_PROFILE, maskKey, type Profile } from '../../config/store.js';
import { KeyringError } from '../../errors.js';
import { keyStoreOf, readStoredKey, type KeyStore } from '../../context/stored-key.js';

/** Why a profile is the one in use: --profile, PROXYCTL_PROFILE, the stored current one, or the built-in default. */
export type ActiveBecause = 'flag' | 'env' | 'stored' | 'default';

export interface ProfileRow {
  name: string;
  /** The stored current profile (the one used when neither --profile nor PROXYCTL_PROFILE names one). */
  current: boolean;
  /** The profile this invocation uses. */
  active: boolean;
  activeBecause: ActiveBecause | null;
  baseUrl: string | null;
  apiKey: string;
  /** Where the key lives; null when the profile has none. */
  keyStore: KeyStore | null;
}

const BECAUSE_TEXT: Record<ActiveBecause, string> = {
  flag: '--profile',
  env: 'PROXYCTL_PROFILE',
  stored: 'stored current',
  default: 'default profile',
};

/** The profile in use and why; `flagProfile` is --profile as given on the command line. */
export function selectedProfile(
  ctx: Context,
  flagProfile: string | undefined,
  storedCurrent: string | undefined,
): { name: string; because: ActiveBecause } {
  if (flagProfile !== undefined) return { name: flagProfile, because: 'flag' };
  const env = nonEmpty(ctx.io.env.PROXYCTL_PROFILE);
  if (env !== undefined) return { name: env, because: 'env' };
  if (storedCurrent !== undefined) return { name: storedCurrent, because: 'stored' };
  return { name: DEFAULT_PROFILE, because: 'default' };
}

export async function listProfiles(ctx: Context, flagProfile: string | undefined): Promise<ProfileRow[]> {
  const store = await ctx.config();
  const current = store.currentProfile() ?? DEFAULT_PROFILE;
  const selected = selectedProfile(ctx, flagProfile, store.currentProfile());
  const profiles = store.profiles();
  if (!(selected.name in profiles) && selected.because !== 'default') {
    ctx.notice(
      `profile "${selected.name}" (from ${BECAUSE_TEXT[selected.because]}) is not stored; log in with proxyctl login --profile ${selected.name}`,
    );
  }
  if (nonEmpty(ctx.io.env.PROXYCTL_API_KEY) !== undefined)
    ctx.notice('PROXYCTL_API_KEY is set: commands use it instead of the stored key of the profile in use');
  const masked = maskedKeys(ctx);
  const rows: ProfileRow[] = [];
  for (const [name, p] of Object.entries(profiles).sort(([a], [b]) => a.localeCompare(b))) {
    const active = name === selected.name;
    rows.push({
      name,
      current: name === current,
      active,
      activeBecause: active ? selected.because : null,
      baseUrl: p.baseUrl ?? null,
      apiKey: await masked(name, p),
      keyStore: keyStoreOf(p) ?? null,
    });
  }
  return rows;
}

/**
 * The masked key of each profile, read from wherever it lives. A keyring that cannot be read is
 * said once, and its keys shown as "-": the list is still what the config file says.
 */
function maskedKeys(ctx: Context): (name: string, p: Profile) => Promise<string> {
  let unreadable = false;
  return async (name, p) => {
    if (unreadable && p.apiKeyRef === 'keyring') return maskKey(undefined);
    try {
      return maskKey(await readStoredKey(ctx, name, p));
    } catch (err) {
      if (!(err instanceof KeyringError)) throw err;
      unreadable = true;
      ctx.warn(`the OS keyring could not be read (${err.detail}); keys stored there are shown as "-"`);
      return maskKey(undefined);
    }
  };
}

/** The "in use" cell: why the row in use is, and which setting overrode the current profile. */
function inUse(rows: ProfileRow[]): (r: ProfileRow) => string {
  const because = rows.find((r) => r.active)?.activeBecause;
  return (r) => {
    if (r.active) return `yes (${BECAUSE_TEXT[r.activeBecause!]})`;
    if (!r.current) return '';
    return because === 'flag' || because === 'env' ? `no (current; overridden by ${BECAUSE_TEXT[because]})` : 'no (current)';
  };
}

export default async function handler({ ctx, command }: Input): Promise<Result> {
  const rows = await listProfiles(ctx, (command.optsWithGlobals() as { profile?: string }).profile);
  return showList(rows, {
    // On a narrow terminal the name, where its key is kept and its URL stay: "in use" goes first
    // (the * marks the profile in use), then the masked key.
    columns: [
      { header: '', value: (r) => (r.active ? '*' : ''), format: (r, p) => (r.active ? p.green('*') : '') },
      { header: 'name', value: (r) => r.name, format: (r, p) => (r.active ? p.bold(r.name) : r.name), priority: 0 },
      { header: 'in use', value: inUse(rows), priority: 3 },
      { header: 'base url', value: (r) => r.baseUrl },
      { header: 'api key', value: (r) => r.apiKey, priority: 2 },
      { header: 'key in', value: (r) => r.keyStore, priority: 0 },
    ],
    fields: ['name', 'current', 'active', 'activeBecause', 'baseUrl', 'apiKey', 'keyStore'],
    empty: 'No profiles stored. Run proxyctl login.',
  });
}
