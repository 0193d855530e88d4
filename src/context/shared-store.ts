import type { Context } from './types.js';
import { nonEmpty } from '../globals.js';
import { ledgerDir } from '../config/dirs.js';
import { profileInUse } from './credentials.js';
import { readLedgerPassword } from './stored-key.js';
import type { SharedStore } from '../ledger/store.js';
import { parseLedgerUrl } from '../ledger/shared-url.js';

/** Where the shared ledger's URL came from, for messages. */
export interface LedgerUrl {
  url: string;
  from: string;
}

/** The shared ledger's URL, password included; undefined when there is none (the local files). */
export async function ledgerUrlOf(ctx: Context): Promise<LedgerUrl | undefined> {
  const env = nonEmpty(ctx.io.env.PROXYCTL_LEDGER_URL);
  if (env) return { url: parseLedgerUrl(env, 'PROXYCTL_LEDGER_URL').href, from: 'PROXYCTL_LEDGER_URL' };
  const store = await ctx.config();
  const name = profileInUse(ctx, store);
  const p = store.profile(name);
  if (!p?.ledgerUrl) return undefined;
  const u = parseLedgerUrl(p.ledgerUrl, `the ledger-url of profile "${name}"`);
  const password = await readLedgerPassword(ctx, name, p);
  if (password !== undefined) u.password = encodeURIComponent(password);
  return { url: u.href, from: `profile "${name}"` };
}

const opened = new WeakMap<Context, Promise<SharedStore | undefined>>();

/** The command's shared store, opened once (no connection is made until it is used). */
export function sharedStoreOf(ctx: Context): Promise<SharedStore | undefined> {
  let s = opened.get(ctx);
  if (!s) {
    s = ledgerUrlOf(ctx).then(async (l) => (l ? (await import('../ledger/pg/index.js')).openSharedStore(l.url) : undefined));
    opened.set(ctx, s);
  }
  return s;
}

/** This machine's ledger directory (the journal files). */
export const localLedgerDir = (ctx: Context) => ledgerDir(ctx.io.env);
