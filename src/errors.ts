// Typed errors carry what the user needs to act; exitCodeFor() is the one place that maps them
// to the exit codes of the CLI contract.

export class CliError extends Error {
  /** Stable machine-readable code shown to the user (and in `{"error":{...}}` output). */
  readonly code: string;
  /** Optional next step, printed after the message. */
  readonly hint: string | undefined;

  constructor(message: string, opts: { code?: string; hint?: string; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.code = opts.code ?? 'error';
    this.hint = opts.hint;
  }
}

/** Bad flags, arguments or input, or a confirmation that was refused or impossible. Exit 2. */
export class UsageError extends CliError {
  constructor(message: string, opts: { code?: string; hint?: string } = {}) {
    super(message, { code: opts.code ?? 'usage_error', ...(opts.hint ? { hint: opts.hint } : {}) });
  }
}

/** No API key is available (before any request). Exit 3. */
export class AuthMissingError extends CliError {
  constructor(message = 'no API key configured', hint = 'run proxyctl login or set PROXYCTL_API_KEY') {
    super(message, { code: 'api_key_missing', hint });
  }
}

export interface ApiErrorFields {
  status: number;
  code: string;
  type?: string | undefined;
  message: string;
  requestId?: string | undefined;
  required?: number | undefined;
  documentationUrl?: string | undefined;
  /** Seconds the server asked us to wait (Retry-After on 429). */
  retryAfter?: number | undefined;
  /** The raw `error` object of the envelope, passed through verbatim in JSON mode. */
  raw?: Record<string, unknown> | undefined;
  /** The server said (`Idempotent-Replayed: true`) this answer is a replay of an earlier request's. */
  replayed?: boolean | undefined;
  /**
   * False for a refusal made here, before or without any request answering it (the balance does not
   * cover a quote, a pool listed unavailable): `status` then only picks the exit code, and no
   * "HTTP 402" is shown as if a server had answered it. Default true.
   */
  answered?: boolean | undefined;
}

/** An error response from the API. Branch on `status` and `code`, never on `type`. */
export class ApiError extends CliError {
  readonly status: number;
  readonly type: string | undefined;
  readonly requestId: string | undefined;
  readonly required: number | undefined;
  readonly retryAfter: number | undefined;
  readonly raw: Record<string, unknown> | undefined;
  readonly replayed: boolean;
  /** Whether a server answered with `status` (false: a refusal made here; see ApiErrorFields). */
  readonly answered: boolean;

  constructor(f: ApiErrorFields, hint?: string) {
    super(f.message, { code: f.code, ...(hint ? { hint } : {}) });
    this.status = f.status;
    this.type = f.type;
    this.requestId = f.requestId;
    this.required = f.required;
    this.retryAfter = f.retryAfter;
    this.raw = f.raw;
    this.replayed = f.replayed === true;
    this.answered = f.answered !== false;
  }
}

/** The request never got a usable answer: refused, reset, DNS, timeout, unparsable body. Exit 9. */
export class NetworkError extends CliError {
  /** True when the request provably never reached the server (safe to retry anything). */
  readonly notSent: boolean;
  constructor(message: string, opts: { code?: string; notSent?: boolean; hint?: string; cause?: unknown } = {}) {
    super(message, { code: opts.code ?? 'network_error', ...(opts.hint ? { hint: opts.hint } : {}), cause: opts.cause });
    this.notSent = opts.notSent ?? false;
  }
}

/**
 * The shared ledger (`ledger-url`) cannot be reached or used. Exit 9. A charging run meets it before
 * anything is charged, or mid-run after the last charge it recorded (the debits it could not enter
 * there are kept in this machine's journal); reads that need no ledger never meet it.
 */
export class LedgerUnavailableError extends CliError {
  constructor(message: string, opts: { code?: string; hint?: string; cause?: unknown } = {}) {
    super(message, { code: opts.code ?? 'ledger_unavailable', ...opts });
  }
}

/** Ctrl-C. Exit 130. */
export class InterruptedError extends CliError {
  constructor(message = 'interrupted') {
    super(message, { code: 'interrupted' });
  }
}

export interface ItemOutcome {
  item: string;
  ok: boolean;
  error?: { code: string; message: string; requestId?: string | undefined } | undefined;
}

/** A bulk command where some items succeeded and some failed. Exit 10. */
export class PartialFailureError extends CliError {
  readonly outcomes: ItemOutcome[];
  constructor(message: string, outcomes: ItemOutcome[]) {
    super(message, { code: 'partial_failure' });
    this.outcomes = outcomes;
  }
}

/** A webhook signature that does not match. Exit 11. */
export class SignatureError extends CliError {
  constructor(message = 'webhook signature does not match') {
    super(message, { code: 'signature_invalid' });
  }
}

/**
 * The OS keyring could not give, keep or remove an API key. `unavailable`: there is no keyring to
 * talk to here (no Secret Service, no session bus); `refused`: there is one and it will not serve
 * (locked, access denied). Exit 3: the command has no key to use. `detail` is the keyring's own
 * words, never the key.
 */
export class KeyringError extends CliError {
  readonly reason: 'unavailable' | 'refused';
  readonly detail: string;
  constructor(
    reason: 'unavailable' | 'refused',
    detail: string,
    message = `the OS keyring ${reason === 'refused' ? 'refused' : 'is not usable'}: ${detail}`,
    hint?: string,
  ) {
    super(message, { code: reason === 'refused' ? 'keyring_refused' : 'keyring_unavailable', ...(hint ? { hint } : {}) });
    this.reason = reason;
    this.detail = detail;
  }
}

/** The contract's exit codes, in one place. */
export const ExitCode = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  auth: 3,
  permission: 4,
  notFound: 5,
  insufficientBalance: 6,
  rateLimited: 7,
  conflict: 8,
  unavailable: 9,
  partialFailure: 10,
  signatureInvalid: 11,
  policy: 12,
  interrupted: 130,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

function exitCodeForStatus(status: number): ExitCodeValue {
  if (status === 400 || status === 422) return ExitCode.usage;
  if (status === 401) return ExitCode.auth;
  if (status === 402) return ExitCode.insufficientBalance;
  if (status === 403) return ExitCode.permission;
  if (status === 404) return ExitCode.notFound;
  if (status === 409) return ExitCode.conflict;
  if (status === 429) return ExitCode.rateLimited;
  // 5xx, and any status the contract does not list (418, 410, a 3xx with the API's envelope…):
  // the API answered, but not with anything this tool can act on. Not proxyctl's bug (exit 1).
  return ExitCode.unavailable;
}

export function exitCodeFor(err: unknown): ExitCodeValue {
  if (err instanceof ApiError) return exitCodeForStatus(err.status);
  if (err instanceof UsageError) return ExitCode.usage;
  if (err instanceof AuthMissingError) return ExitCode.auth;
  if (err instanceof KeyringError) return ExitCode.auth;
  if (err instanceof NetworkError) return ExitCode.unavailable;
  if (err instanceof LedgerUnavailableError) return ExitCode.unavailable;
  if (err instanceof InterruptedError) return ExitCode.interrupted;
  if (err instanceof PartialFailureError) return ExitCode.partialFailure;
  if (err instanceof SignatureError) return ExitCode.signatureInvalid;
  if (err instanceof NotAppliedError) return ExitCode.unavailable;
  if (err instanceof NotFoundError) return ExitCode.notFound;
  if (err instanceof ConflictError) return ExitCode.conflict;
  if (err instanceof PolicyError) return ExitCode.policy;
  return ExitCode.unexpected;
}

/** The `{"error":{...}}` object printed on stderr in JSON mode. */
export function errorObject(err: unknown): { error: Record<string, unknown> } {
  if (err instanceof ApiError) {
    return {
      error: {
        ...(err.raw ?? {}),
        ...(err.answered ? { status: err.status } : {}),
        code: err.code,
        message: err.message,
        ...(err.type !== undefined ? { type: err.type } : {}),
        ...(err.requestId !== undefined ? { requestId: err.requestId } : {}),
        ...(err.required !== undefined ? { required: err.required } : {}),
        ...(err.retryAfter !== undefined ? { retryAfter: err.retryAfter } : {}),
      },
    };
  }
  if (err instanceof NotAppliedError) return { error: notAppliedObject(err) };
  if (err instanceof PartialFailureError) {
    return { error: { code: err.code, message: err.message, items: err.outcomes } };
  }
  if (err instanceof BadResponseError) {
    const { status, requestId } = err;
    return {
      error: { code: err.code, message: err.message, status, ...(requestId ? { requestId } : {}), ...(err.hint ? { hint: err.hint } : {}) },
    };
  }
  if (err instanceof CliError) {
    return { error: { code: err.code, message: err.message, ...(err.hint ? { hint: err.hint } : {}) } };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { error: { code: 'unexpected_error', message } };
}

/**
 * The server answered, but not with what the operation returns: a body that is not JSON or not the
 * expected shape, a redirect, an error without the API's envelope. Like an ApiError it carries the
 * status and request id; like a NetworkError it means "no usable answer" (exit 9), and for a
 * purchase the outcome is unknown.
 */
export class BadResponseError extends NetworkError {
  readonly status: number;
  readonly requestId: string | undefined;
  constructor(message: string, f: { status: number; requestId?: string | undefined; code?: string; hint?: string | undefined }) {
    super(message, { code: f.code ?? 'bad_response', ...(f.hint ? { hint: f.hint } : {}) });
    this.status = f.status;
    this.requestId = f.requestId;
  }
}

/**
 * The API answered 200 but with `extended: false`, `removed: false` or `modified: false`. The spec
 * does not say what false means, so it is never reported as done. Exit 9; the API's answer and
 * what a re-read found travel with the error (and into `{"error":{...}}`).
 */
export class NotAppliedError extends CliError {
  /** The API's answer, verbatim. */
  readonly answer: unknown;
  readonly requestId: string | undefined;
  /** What reading the unit (and balance) back found, e.g. { expiresAtBefore, expiresAtAfter, expiryMoved }. */
  readonly found: Record<string, unknown>;

  constructor(message: string, opts: { answer: unknown; requestId?: string | undefined; found?: Record<string, unknown>; hint?: string }) {
    super(message, { code: 'not_applied', ...(opts.hint ? { hint: opts.hint } : {}) });
    this.answer = opts.answer;
    this.requestId = opts.requestId;
    this.found = opts.found ?? {};
  }
}

export function notAppliedObject(err: NotAppliedError): Record<string, unknown> {
  return {
    code: err.code,
    message: err.message,
    answer: err.answer,
    ...(err.requestId !== undefined ? { requestId: err.requestId } : {}),
    ...(Object.keys(err.found).length ? { found: err.found } : {}),
    ...(err.hint ? { hint: err.hint } : {}),
  };
}

/**
 * What each exit code means: the one text behind `proxyctl help exit-codes` and the README's
 * "Exit codes" table (test/help/exit-codes-environment.test.ts keeps the three in step).
 */
export const EXIT_CODE_MEANINGS: Readonly<Record<ExitCodeValue, string>> = {
  0: 'success',
  1: 'unexpected error (a bug)',
  2: 'usage or validation error, refused or impossible confirmation',
  3: 'authentication: key missing or invalid (401), or the OS keyring could not give or keep it',
  4: 'permission: reseller mode disabled (403)',
  5: 'not found (404), or no other available pool for `units swap --same-country`',
  6: 'insufficient balance (402)',
  7: 'rate limited after the retries allowed (429)',
  8: 'conflict (409)',
  9: "service unavailable: 5xx, network failure, timeout, or an answer that is not the API's (redirect, wrong shape, an error status this table does not list); or the API answered `extended`/`removed`/`modified: false` (never taken as done); or the shared ledger (`ledger-url`) cannot be reached: nothing is charged",
  10: 'partial failure of a bulk command; `units check`: any check failed; or the money was spent but the output failed (a `--jq` error after a purchase or extension: what was bought or extended is named on stderr, never exit 2)',
  11: 'webhook signature invalid',
  12: 'refused by a budget or policy of the profile (`max-spend-per-run`, `max-spend-per-day`, `allowed-periods`, `allowed-countries`); nothing was charged',
  130: 'interrupted (Ctrl-C); `webhook listen` and `webhook log --follow`, which run until Ctrl-C, exit 0',
};

/** Something the command needs does not exist on the server, found out client-side (not a 404). Exit 5. */
export class NotFoundError extends CliError {}

/** A request that contradicts what proxyctl already knows, found out client-side before any request (e.g. an idempotency key reused for another purchase). Exit 8. */
export class ConflictError extends CliError {}

/** A charge the profile's budget or policy does not allow, refused before any request. Exit 12. */
export class PolicyError extends CliError {
  /** What the daily budget had left when it refused (USD), so a run can fit itself under it (--fit). */
  readonly leftUsd: number | undefined;

  constructor(message: string, opts: { code?: string; hint?: string; cause?: unknown; leftUsd?: number } = {}) {
    super(message, opts);
    this.leftUsd = opts.leftUsd;
  }
}
