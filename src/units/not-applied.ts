// `extended: false`, `removed: false`, `modified: false`: the spec gives these booleans but not the
// meaning of false, so such an answer is never reported as done. The item fails (NotAppliedError,
// exit 9) with the API's answer, and the unit (and, for extend, the balance) is read back so the
// user learns what actually happened: did the expiry move, could money have been taken.
import type { ApiClient } from '../api/client.js';
import { getAccount, getUnit } from '../api/endpoints.js';
import { ApiError, NotAppliedError } from '../errors.js';
import { money } from '../output/index.js';
import type { Extended, ExtendResult, Unit } from './types.js';

/** Only an explicit `true` counts: `false`, a missing field or anything else is not "done". */
export function applied(answer: unknown, field: 'extended' | 'removed' | 'modified'): boolean {
  return !!answer && typeof answer === 'object' && (answer as Record<string, unknown>)[field] === true;
}

function answered(answer: unknown, field: string): string {
  const v = answer && typeof answer === 'object' ? (answer as Record<string, unknown>)[field] : undefined;
  return v === undefined ? `no ${field} field` : `${field}: ${JSON.stringify(v)}`;
}

/**
 * A read-back (its type is the endpoint's, so its shape's) that must not be cut short by Ctrl-C
 * (the user needs the answer; the read is made with `signal: null`) nor stop the report.
 */
async function readBack<T>(read: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await read() };
  } catch (error) {
    return { ok: false, error };
  }
}

const unitBack = (api: ApiClient, ref: string) => readBack(() => getUnit(api, ref, { signal: null }));

export interface NotExtendedInput {
  ref: string;
  period: string;
  answer: unknown;
  requestId: string | undefined;
  expiresAtBefore: string | undefined;
  /** The balance read before this extension (the batch's quote). */
  balanceBefore?: number | undefined;
  /** Other extensions of the same batch may move the balance meanwhile. */
  concurrent?: boolean | undefined;
}

/** The error for an `extended` answer other than true, after reading the unit and the balance back. */
async function notExtended(api: ApiClient, input: NotExtendedInput): Promise<NotAppliedError> {
  const { ref, period, answer, requestId, expiresAtBefore } = input;
  const parts = [`the API answered ${answered(answer, 'extended')} for ${ref}`];
  const found: Record<string, unknown> = { expiresAtBefore: expiresAtBefore ?? null };
  let moved: boolean | undefined;
  const unit = await unitBack(api, ref);
  if (unit.ok) {
    const after = unit.value?.expiresAt;
    found.expiresAtAfter = after ?? null;
    const t0 = expiresAtBefore ? Date.parse(expiresAtBefore) : NaN;
    const t1 = typeof after === 'string' ? Date.parse(after) : NaN;
    if (Number.isFinite(t0) && Number.isFinite(t1)) {
      moved = t1 > t0;
      parts.push(moved ? `expiry moved from ${expiresAtBefore} to ${after}` : 'expiry unchanged');
    } else parts.push('its expiry could not be compared');
  } else parts.push(`reading the unit back failed (${(unit.error as Error).message})`);
  found.expiryMoved = moved ?? null;

  let charge: 'none' | 'possible' | 'unknown' = 'unknown';
  const account = await readBack(() => getAccount(api, { signal: null }));
  const b0 = input.balanceBefore;
  const b1 = account.ok && typeof account.value?.balanceUsd === 'number' ? account.value.balanceUsd : undefined;
  if (b0 !== undefined && b1 !== undefined) {
    found.balanceBefore = b0;
    found.balanceAfter = b1;
    if (Math.round(b1 * 100) >= Math.round(b0 * 100)) {
      parts.push(input.concurrent ? 'balance not lower than before the batch' : 'balance unchanged');
      charge = 'none';
    } else {
      parts.push(`balance went from ${money(b0)} to ${money(b1)}${input.concurrent ? ' while other extensions of this batch ran' : ''}`);
      charge = 'possible';
    }
  } else {
    parts.push('the balance could not be compared');
  }
  if (moved) charge = 'possible';
  found.chargePossible = charge !== 'none';
  if (charge !== 'none') parts.push('a charge appears possible');

  const hint =
    moved === false && charge === 'none'
      ? `nothing appears to have changed; check with proxyctl units get ${ref} before extending it again by ${period}`
      : `check with proxyctl units get ${ref} and proxyctl account before extending it again${requestId ? `; quote request id ${requestId} to support` : ''}`;
  return new NotAppliedError(parts.join('; '), { answer, requestId, found, hint });
}

/** The error for a `removed` answer other than true, after reading the unit back. */
export async function notRemoved(api: ApiClient, ref: string, answer: unknown, requestId: string | undefined): Promise<NotAppliedError> {
  const parts = [`the API answered ${answered(answer, 'removed')} for ${ref}`];
  const found: Record<string, unknown> = {};
  const unit = await unitBack(api, ref);
  if (unit.ok) {
    found.status = unit.value?.status ?? null;
    parts.push(`the unit still reads as ${typeof unit.value?.status === 'string' ? unit.value.status : 'present (no status)'}`);
  } else if (unit.error instanceof ApiError && unit.error.status === 404) {
    found.status = 'not_found';
    parts.push('the unit is no longer found');
  } else parts.push(`reading the unit back failed (${(unit.error as Error).message})`);
  return new NotAppliedError(parts.join('; '), {
    answer,
    requestId,
    found,
    hint: `check with proxyctl units get ${ref} before releasing it again`,
  });
}

export interface ModifyRequest {
  description?: string;
  allowedIps?: string[];
  credentials?: { username: string; password: string };
}

/** The requested fields the unit does not hold (after a read-back). */
function differences(u: Unit, body: ModifyRequest): string[] {
  const out: string[] = [];
  if (body.description !== undefined && u.description !== body.description) out.push('description');
  if (body.credentials && (u.credentials?.username !== body.credentials.username || u.credentials?.password !== body.credentials.password))
    out.push('credentials');
  if (body.allowedIps) {
    const have = Array.isArray(u.allowedIps) ? [...(u.allowedIps as string[])].sort().join(',') : '';
    if (have !== [...body.allowedIps].sort().join(',')) out.push('allowed IPs');
  }
  return out;
}

/** The error for a `modified` answer other than true, after reading the unit back. */
export async function notModified(
  api: ApiClient,
  ref: string,
  body: ModifyRequest,
  answer: unknown,
  requestId: string | undefined,
): Promise<NotAppliedError> {
  const parts = [`the API answered ${answered(answer, 'modified')} for ${ref}`];
  const found: Record<string, unknown> = {};
  const unit = await unitBack(api, ref);
  if (unit.ok) {
    const diff = differences(unit.value, body);
    found.differs = diff;
    parts.push(diff.length ? `the unit does not have the requested ${diff.join(', ')}` : 'the unit already has the requested settings');
  } else parts.push(`reading the unit back failed (${(unit.error as Error).message})`);
  return new NotAppliedError(parts.join('; '), { answer, requestId, found, hint: `check with proxyctl units get ${ref}` });
}

/** extendSafely's result, or the NotAppliedError when the API did not say `extended: true`. */
export async function requireExtended(
  api: ApiClient,
  res: { data: ExtendResult; requestId: string | undefined },
  input: Omit<NotExtendedInput, 'answer' | 'requestId'>,
): Promise<Extended> {
  if (applied(res.data, 'extended')) return { ...res.data, proxyRef: res.data.proxyRef ?? input.ref, extended: true };
  throw await notExtended(api, { ...input, answer: res.data, requestId: res.requestId });
}
