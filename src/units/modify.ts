// Changing units in place, for every front door (`units modify`, the agent's modify_units): the
// description, the customer tag (--customer keeps each unit's own text beside the tag, so it reads
// each unit's description first), credentials, a new password made here, or the replacement IP
// whitelist, in one PATCH. Only an answer that says `modified: true` is done, and a description
// written is recorded in the ledger as the unit's customer tag.
import type { ApiClient } from '../api/client.js';
import { getUnit, modifyUnit as patchUnit } from '../api/endpoints.js';
import type { Modified } from '../api/shapes.js';
import { UsageError } from '../errors.js';
import { customerOf, parseCustomer, withCustomer, type Ledger } from '../ledger/index.js';
import { applied, notModified, type ModifyRequest } from './not-applied.js';
import { generatePassword } from './password.js';
import type { Unit } from './types.js';
import { normaliseAllowIps, parseCredential, parseCredentials } from './validate.js';

/** The change as given (flags, or an agent's arguments in the same words). */
export interface ModifyFlags {
  description?: string | undefined;
  customer?: string | undefined;
  allowIp?: string[] | undefined;
  username?: string | undefined;
  password?: string | undefined;
  regeneratePassword?: boolean | undefined;
  connFormat?: string | undefined;
}

/** Where a change is made: the API, and the account's ledger for the customer tag a description gives. */
export interface ModifyRun {
  api: ApiClient;
  /** Opens the account's ledger; one that cannot be opened or written is said through `warn`, never fails the change. */
  ledger: () => Promise<Ledger>;
  now: () => Date;
  warn: (message: string) => void;
}

export type ModifyBody = ModifyRequest;

export interface Change {
  body: ModifyBody;
  /** --customer: each unit's description gets this tag, its other text kept. */
  customer: string | undefined;
  /** --regenerate-password: a new password per unit, under --username's name or the unit's own. */
  regenerate: { username: string | undefined } | undefined;
}

export function parseModify(f: ModifyFlags): Change {
  const allowedIps = normaliseAllowIps(f.allowIp);
  const regenerate = f.regeneratePassword ? parseRegenerate(f, allowedIps) : undefined;
  if (!regenerate && f.connFormat !== undefined)
    throw new UsageError('--conn-format shapes the connection lines of --regenerate-password; modify prints no connections otherwise');
  const credentials = regenerate ? undefined : parseCredentials(f.username, f.password);
  const customer = f.customer === undefined ? undefined : parseCustomer(f.customer);
  const body: ModifyBody = {
    ...(f.description !== undefined ? { description: customer ? withCustomer(f.description, customer) : f.description } : {}),
    ...(allowedIps.length ? { allowedIps: [...new Set(allowedIps)] } : {}),
    ...(credentials ? { credentials } : {}),
  };
  if (Object.keys(body).length === 0 && customer === undefined && !regenerate)
    throw new UsageError('nothing to change: give --description, --customer, --allow-ip, --username/--password or --regenerate-password');
  return { body, customer, regenerate };
}

/** --regenerate-password: the password is made here, so one typed too is a mistake, as is a whitelist (no-auth units have no password). */
function parseRegenerate(f: ModifyFlags, allowedIps: string[]): NonNullable<Change['regenerate']> {
  if (f.password !== undefined) throw new UsageError('--regenerate-password makes the password: drop --password');
  if (allowedIps.length > 0)
    throw new UsageError('--allow-ip is for http_noauth units, which have no password: change it apart from --regenerate-password');
  return { username: f.username === undefined ? undefined : parseCredential(f.username, '--username') };
}

/** The body for one unit: with --customer and no --description, its own description re-tagged. */
export function bodyFor(change: Change, current: string | undefined): ModifyBody {
  if (change.customer === undefined || change.body.description !== undefined) return change.body;
  return { ...change.body, description: withCustomer(current, change.customer) };
}

export const descriptionOf = (u: Unit) => (typeof u.description === 'string' ? u.description : undefined);

/**
 * A new password for one unit (read first unless the selection listed it): sent in the one PATCH
 * with the rest of the change, and returned in the unit as it now is, the one place it is shown.
 */
export async function regeneratePassword(run: ModifyRun, ref: string, change: Change, listed: Unit | undefined): Promise<Unit> {
  const unit = listed ?? (await getUnit(run.api, ref));
  const username = change.regenerate?.username ?? unit.credentials?.username;
  if (!unit.credentials || username === undefined)
    throw new UsageError(`${ref} has no password to regenerate: an ${unit.protocol ?? 'http_noauth'} unit is reached by its allowed IPs`);
  const credentials = { username, password: generatePassword() };
  const body = { ...bodyFor(change, descriptionOf(unit)), credentials };
  await modifyUnit(run, ref, body, { description: descriptionOf(unit) });
  return { ...unit, credentials, ...(body.description !== undefined ? { description: body.description } : {}) };
}

/** What a unit's description was before a change, when it was read (a tag records the customer it had). */
export interface Before {
  description: string | undefined;
}

/**
 * PATCHes one unit. A description written is also recorded in the ledger as the unit's customer
 * tag (noteTag), with the one it had when `before` says, so its debits follow the tag.
 */
export async function modifyUnit(run: ModifyRun, ref: string, body: ModifyBody, before?: Before): Promise<Modified> {
  const { api } = run;
  // A replacement of fields: sending it twice leaves the same unit, so reads' retries are fine.
  const res = await patchUnit(api, ref, body, { retry: 'read' });
  // Only `modified: true` is done; anything else fails with the API's answer and what a re-read found.
  if (!applied(res.data, 'modified')) throw await notModified(api, ref, body, res.data, res.requestId);
  if (body.description !== undefined) await noteTag(run, ref, body.description, before);
  return res.data;
}

/**
 * Records the customer tag a description gives the unit (none when it has no `customer=NAME`), and
 * the one it had when it was read, so that src/ledger's attribute() gives the unit's untagged
 * debits to the customer it gets (tagging) and leaves past debits where they were (retagging). A
 * description that leaves the customer as it was records nothing. Never fails the change: a line
 * that cannot be written is said.
 */
async function noteTag(run: ModifyRun, ref: string, description: string, before: Before | undefined): Promise<void> {
  const customer = customerOf(description);
  const from = before ? (customerOf(before.description) ?? null) : undefined;
  if (from !== undefined && (from ?? undefined) === customer) return;
  let path = 'the ledger';
  try {
    const ledger = await run.ledger();
    path = ledger.journal.where;
    await ledger.journal.tag([{ kind: 'tag', ref, at: run.now().toISOString(), customer, from, profile: ledger.profile }]);
  } catch (err) {
    run.warn(`cannot write ${path}: ${(err as Error).message}; ${ref} is changed, but spend will not move its earlier debits with its tag`);
  }
}

/** The unit's description now, read before a change that keeps its other text. */
export async function descriptionBefore(api: ApiClient, ref: string): Promise<Before> {
  return { description: descriptionOf(await getUnit(api, ref)) };
}
