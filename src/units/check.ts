// `units check`: one result per unit (or per line of a file), whatever happened. A unit passes when
// a request through it, with its own protocol and credentials, got an HTTP answer from the target;
// every failure has a stable code (README "Checking units"). The exit address is what the target
// says it saw (`sourceAddress`, as the sandbox's echo answers); other targets leave it null.
import { InterruptedError } from '../errors.js';
import {
  probe,
  ProbeError,
  type NotSocks,
  type ProbeCode,
  type ProxyEndpoint,
  type ProxyProtocol,
  type TargetTls,
} from '../net/proxy-probe.js';
import type { Unit } from './types.js';
import type { ConnLine } from './conn-lines.js';

export type CheckCode = ProbeCode | 'not_proxied' | 'not_found' | 'api_error';

/** The result object of `units check -o json` (field names documented in README). */
export interface CheckResult {
  ref: string | null;
  line: number | null;
  ip: string | null;
  port: number | null;
  protocol: string | null;
  ok: boolean;
  status: number | null;
  latencyMs: number | null;
  exitIp: string | null;
  error: CheckCode | null;
  message: string | null;
}

/** What to check: an address, maybe its protocol and credentials, and where it came from. */
export interface Candidate {
  ref: string | null;
  line: number | null;
  host: string | null;
  port: number | null;
  /** Undefined: not known (a colon line), so SOCKS5 is tried first, then HTTP. */
  protocol: ProxyProtocol | undefined;
  username?: string | undefined;
  password?: string | undefined;
  /** Set when there is nothing to connect to (the sandbox says the unit is not proxied). */
  notProxied?: string | undefined;
}

export interface CheckOptions {
  target: URL;
  timeoutMs: number;
  signal: AbortSignal;
  userAgent: string;
  /** How an https target's certificate is checked (--insecure, --ca-cert). */
  targetTls?: TargetTls | undefined;
}

/** A failed check, thrown so bulk progress counts it as failed; `result` is what gets printed. */
export class CheckFailed extends Error {
  constructor(readonly result: CheckResult) {
    super(`${result.error}: ${result.message}`);
  }
}

const PROTOCOLS = new Set(['socks5', 'http', 'http_noauth']);

export function candidateFromUnit(u: Unit): Candidate {
  const protocol = u.protocol === 'inject' ? 'http_noauth' : u.protocol;
  const c: Candidate = {
    ref: u.proxyRef,
    line: null,
    host: typeof u.ip === 'string' ? u.ip : null,
    port: typeof u.port === 'number' ? u.port : null,
    protocol: PROTOCOLS.has(protocol ?? '') ? (protocol as ProxyProtocol) : undefined,
    username: u.credentials?.username,
    password: u.credentials?.password,
  };
  if (u.proxied === false) c.notProxied = 'the sandbox sold this unit without a listener (past its proxy limit)';
  else if (c.host === null || c.port === null) c.notProxied = 'the unit has no ip and port to connect to';
  return c;
}

export function candidateFromLine(l: ConnLine): Candidate {
  return { ref: null, line: l.line, host: l.host, port: l.port, protocol: l.protocol, username: l.username, password: l.password };
}

export function failedResult(c: Pick<Candidate, 'ref' | 'line'>, error: CheckCode, message: string): CheckResult {
  return { ...base(c), error, message };
}

function base(c: Partial<Candidate>): CheckResult {
  return {
    ref: c.ref ?? null,
    line: c.line ?? null,
    ip: c.host ?? null,
    port: c.port ?? null,
    protocol: c.protocol ?? null,
    ok: false,
    status: null,
    latencyMs: null,
    exitIp: null,
    error: null,
    message: null,
  };
}

/** Checks one candidate. Never rejects for a failed check (that is a result); only for Ctrl-C. */
export async function checkCandidate(c: Candidate, opts: CheckOptions): Promise<CheckResult> {
  if (c.notProxied !== undefined || c.host === null || c.port === null) {
    return { ...base(c), error: 'not_proxied', message: c.notProxied ?? 'nothing to connect to' };
  }
  const tries: ProxyProtocol[] = c.protocol ? [c.protocol] : ['socks5', 'http'];
  let result = base(c);
  let notSocks: NotSocks | undefined;
  for (const protocol of tries) {
    const endpoint: ProxyEndpoint = { protocol, host: c.host, port: c.port, username: c.username, password: c.password };
    result = { ...base(c), protocol };
    try {
      const answer = await probe(endpoint, opts.target, {
        timeoutMs: opts.timeoutMs,
        signal: opts.signal,
        headers: { 'user-agent': opts.userAgent, accept: 'application/json' },
        targetTls: opts.targetTls,
      });
      const ok = answer.status >= 200 && answer.status < 400;
      return {
        ...result,
        ok,
        status: answer.status,
        latencyMs: answer.firstByteMs,
        exitIp: exitIpFrom(answer.body, answer.contentType),
        error: ok ? null : 'target_error',
        message: ok ? null : `the target answered HTTP ${answer.status}`,
      };
    } catch (err) {
      if (opts.signal.aborted) throw new InterruptedError();
      if (!(err instanceof ProbeError)) throw err;
      result = { ...result, error: err.code, message: err.message };
      // Only a proxy that answered (or hung up) not in SOCKS5 is worth asking again as an HTTP proxy.
      if (protocol === 'socks5') notSocks = err.notSocks;
      if (!err.notSocks) break;
    }
  }
  if (!c.protocol && result.error === 'refused') {
    // Hung up on both: its protocol is still unknown. Answered SOCKS5 with something else and hung up on HTTP: neither.
    if (notSocks === 'answered' && result.protocol === 'http') {
      result = { ...result, error: 'bad_response', message: 'the proxy answers neither SOCKS5 nor HTTP' };
    }
    result.protocol = null;
  }
  return result;
}

/** `sourceAddress` from a JSON body (the sandbox's echo), an IPv4-mapped address shown as IPv4. */
function exitIpFrom(body: string, contentType: string | undefined): string | null {
  if (!contentType?.includes('json')) return null;
  try {
    const v = JSON.parse(body) as { sourceAddress?: unknown } | null;
    const a = v && typeof v === 'object' ? v.sourceAddress : undefined;
    return typeof a === 'string' ? a.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '') : null;
  } catch {
    return null;
  }
}

export interface CheckSummary {
  ok: number;
  failed: number;
  notStarted: number;
  /** Of the passing checks; undefined when none passed. */
  medianMs: number | undefined;
  p95Ms: number | undefined;
}

export function summarise(results: readonly CheckResult[], notStarted: number): CheckSummary {
  const times = results
    .filter((r) => r.ok && r.latencyMs !== null)
    .map((r) => r.latencyMs as number)
    .sort((a, b) => a - b);
  const ok = results.filter((r) => r.ok).length;
  return { ok, failed: results.length - ok, notStarted, medianMs: percentile(times, 50), p95Ms: percentile(times, 95) };
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}
