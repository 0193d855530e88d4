// The secrets `webhook listen` verifies deliveries with. Given ones (--secret, or
// PROXYCTL_WEBHOOK_SECRET) never change. Otherwise the account's secret is read from the API, and
// read again when a delivery does not match: `webhook set` issues a new secret, and the natural
// order is "start the receiver, then point the webhook at it".
import type { Env } from '../io.js';
import type { BaseContext } from '../globals.js';

/** Where the secrets come from, and how to re-read them when they may have been rotated. */
export interface SecretSource {
  /** Read on every delivery, so a refresh is seen at once. */
  current(): readonly string[];
  /** Re-reads the secret; true when it changed. Absent when the secrets were given. */
  refresh?: () => Promise<boolean>;
}

/** At most one read per this many ms, however many bad deliveries arrive. */
export const REFRESH_INTERVAL_MS = 2_000;

/** --secret wins over PROXYCTL_WEBHOOK_SECRET; empty when neither was given (read them from the API). */
export function givenSecrets(flags: readonly string[], env: Env): readonly string[] {
  if (flags.length > 0) return flags;
  return env.PROXYCTL_WEBHOOK_SECRET ? [env.PROXYCTL_WEBHOOK_SECRET] : [];
}

export function fixedSecrets(secrets: readonly string[]): SecretSource {
  return { current: () => secrets };
}

export interface ApiSecretOptions {
  /** The account's secret as the API has it now (GET /webhook); null, undefined or '' when it has none. */
  read: () => Promise<string | null | undefined>;
  intervalMs?: number;
  /** Milliseconds, for the interval between reads. */
  clock?: () => number;
}

/**
 * Reads the account's secret once now (warning when there is none yet) and returns a source whose
 * `refresh` reads it again: concurrent calls share one read, and a call within `intervalMs` of the
 * last read reads nothing and answers false. A changed secret is announced with a notice.
 */
export async function secretFromApi(ctx: Pick<BaseContext, 'notice' | 'warn'>, opts: ApiSecretOptions): Promise<SecretSource> {
  const intervalMs = opts.intervalMs ?? REFRESH_INTERVAL_MS;
  const clock = opts.clock ?? Date.now;
  const read = async () => {
    const secret = await opts.read();
    return typeof secret === 'string' && secret !== '' ? secret : undefined;
  };
  let secret = await read();
  if (!secret)
    ctx.warn('the account has no webhook secret yet; it is read again when the first delivery arrives (after proxyctl webhook set)');
  let lastRefresh = 0;
  let pending: Promise<boolean> | undefined;
  return {
    current: () => (secret ? [secret] : []),
    refresh() {
      if (pending) return pending;
      if (clock() - lastRefresh < intervalMs) return Promise.resolve(false);
      lastRefresh = clock();
      pending = read()
        .then((fresh) => {
          const changed = fresh !== secret;
          secret = fresh;
          if (changed && fresh) ctx.notice('Read the new webhook secret from the API.');
          return changed;
        })
        .finally(() => (pending = undefined));
      return pending;
    },
  };
}
