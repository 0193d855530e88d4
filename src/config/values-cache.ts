// The values cache behind shell completion: pool ids, countries, states, providers and unit refs
// that commands saw in the API's answers, per account (profile and base URL), so that TAB can offer
// them without a request. It is a cache, not a record: short-lived (VALUES_TTL_MS), bounded
// (MAX_VALUES per kind, MAX_UNITS unit refs, MAX_SCOPES accounts, MAX_FILE_BYTES read at most:
// older accounts go first to stay under it), written whole to a temp
// file and renamed (readers never see half a file; two writers at once lose one update, which a
// cache may), file 0600 in a 0700 dir. It holds no keys. Plain node:fs only: a command that
// records values loads nothing more, and `proxyctl __complete` reads it in a few milliseconds at most.
import { closeSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '../io.js';
import { nonEmpty } from '../globals.js';
import { cacheDir, configDir } from './dirs.js';
import { DEFAULT_PROFILE, ensurePrivateDir } from './store.js';

// unavailablePools: pool ids the catalogue last showed as not available (a swap to one fails).
const VALUE_KINDS = ['pools', 'countries', 'states', 'providers', 'units', 'unavailablePools'] as const;
export type ValueKind = (typeof VALUE_KINDS)[number];

/** Values older than this are not offered (units come and go; the catalogue changes slowly). */
const VALUES_TTL_MS = 12 * 3600 * 1000;
export const MAX_VALUES = 1000;
/**
 * Unit refs kept per account: every unit of a large fleet, so TAB on `PRX-12` offers every ref that
 * starts so (a bound of 1,000 offered 1 of the 111 a 10,000-unit account has). About 40 bytes a
 * unit with its pool: a 50,000-unit account is 2 MB, read in a few milliseconds.
 */
export const MAX_UNITS = 50_000;
const maxOf = (kind: ValueKind) => (kind === 'units' ? MAX_UNITS : MAX_VALUES);
const MAX_SCOPES = 16;
const MAX_FILE_BYTES = 8 * 1024 * 1024;
/**
 * A run that saw nothing new (every value, and each unit's pool, already held) rewrites the file
 * only when what it holds is older than this: a read command run again and again (`units list
 * --json` in a loop) then costs no write, and the values seen still expire (and move up in the
 * order they are offered and dropped in) at most this much later.
 */
const REFRESH_MS = 3600 * 1000;
const FILE = 'completion-values.json';

interface Entry {
  at: number;
  values: string[];
}
interface Scope {
  at: number;
  kinds: Partial<Record<ValueKind, Entry>>;
  /** Each unit's pool (ref → pool id), as last seen: `units swap REF --pool` leaves it out. */
  unitPools?: { at: number; of: Record<string, string> };
}
interface CacheFile {
  version: 1;
  /**
   * The last thing each account's runs saw, as a digest, and when: a run that sees the same again
   * within REFRESH_MS leaves the cache alone. Written before `scopes`, so that it is read from the
   * head of the file alone (readMarks); every run that reaches the values rewrites its account's
   * mark, so one that changed them (a release forgetting a ref) is never taken for an earlier list.
   */
  marks?: Record<string, Mark>;
  scopes: Record<string, Scope>;
}
interface Mark {
  digest: string;
  at: number;
}

/** The account a command talks to, as far as the cache needs to tell accounts apart. */
export interface Account {
  /** --profile or PROXYCTL_PROFILE. */
  profile: string | undefined;
  /** --base-url or PROXYCTL_BASE_URL. */
  baseUrl: string | undefined;
}

/** The parts of the config file the cache and completion read: profile names and base URLs, never keys. */
export interface ProfileNames {
  current: string | undefined;
  baseUrls: Record<string, string | undefined>;
}

function readJson(path: string): unknown {
  try {
    if (statSync(path).size > MAX_FILE_BYTES) return undefined;
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Profile names and their base URLs from the config file (the keys are read past, never kept). */
export async function readProfileNames(env: Env): Promise<ProfileNames> {
  const data = readJson(join(configDir(env), 'config.json'));
  const baseUrls: Record<string, string | undefined> = {};
  if (!isObject(data)) return { current: undefined, baseUrls };
  if (isObject(data.profiles)) {
    for (const [name, p] of Object.entries(data.profiles)) {
      baseUrls[name] = isObject(p) && typeof p.baseUrl === 'string' ? p.baseUrl : undefined;
    }
  }
  return { current: typeof data.currentProfile === 'string' ? data.currentProfile : undefined, baseUrls };
}

/** One key per account: the profile in use and the base URL it talks to (flag > environment > profile). */
function scopeKey(account: Account, env: Env, profiles: ProfileNames): string {
  const profile = account.profile ?? nonEmpty(env.PROXYCTL_PROFILE) ?? profiles.current ?? DEFAULT_PROFILE;
  const baseUrl = account.baseUrl ?? nonEmpty(env.PROXYCTL_BASE_URL) ?? profiles.baseUrls[profile] ?? '';
  return `${profile} ${baseUrl.replace(/\/+$/, '')}`;
}

function readCache(dir: string): CacheFile {
  const data = readJson(join(dir, FILE));
  if (isObject(data) && data.version === 1 && isObject(data.scopes)) return data as unknown as CacheFile;
  return { version: 1, scopes: {} };
}

/** What the cache holds for one account, as of now: nothing older than the TTL. */
export interface AccountValues {
  /** The values of one kind, newest first. */
  values(kind: ValueKind): string[];
  /** The pool a unit was last seen in. */
  poolOf(ref: string): string | undefined;
}

/** The account's cached values, read once (a TAB that needs several kinds reads the file once). */
export async function accountValues(env: Env, account: Account, nowMs: number): Promise<AccountValues> {
  const key = scopeKey(account, env, await readProfileNames(env));
  const scope = readCache(cacheDir(env)).scopes[key];
  const fresh = (at: unknown) => typeof at === 'number' && nowMs - at < VALUES_TTL_MS;
  return {
    values(kind) {
      const entry = scope?.kinds?.[kind];
      if (!entry || !fresh(entry.at) || !Array.isArray(entry.values)) return [];
      return entry.values.filter((v): v is string => typeof v === 'string');
    },
    poolOf(ref) {
      const pools = scope?.unitPools;
      if (!pools || !fresh(pools.at) || !isObject(pools.of) || !Object.hasOwn(pools.of, ref)) return undefined;
      const pool = pools.of[ref];
      return typeof pool === 'string' ? pool : undefined;
    },
  };
}

/** What a command saw: values of some kinds to add (newest first), and unit refs that are gone. */
export interface Seen {
  add?: Partial<Record<ValueKind, readonly unknown[]>>;
  remove?: Partial<Record<ValueKind, readonly unknown[]>>;
  /** Units and the pool each is in (a unit removed above is forgotten here too). */
  unitPools?: readonly { ref: unknown; pool: unknown }[];
}

/** A value worth offering on a command line: a short word without spaces or control characters. */
const OFFERABLE = /^[\w.:@/+-]{1,100}$/;

/** Written less than REFRESH_MS ago: a part that holds everything a run saw is then left as it is. */
const recent = (at: unknown, nowMs: number): boolean => typeof at === 'number' && nowMs - at >= 0 && nowMs - at < REFRESH_MS;

/** Notes each unit's pool (newest last, at most MAX_UNITS) and forgets removed units; true when anything changed. */
function recordUnitPools(scope: Scope, seen: Seen, nowMs: number): boolean {
  const pairs = (seen.unitPools ?? []).filter(
    (p): p is { ref: string; pool: string } =>
      typeof p.ref === 'string' && typeof p.pool === 'string' && OFFERABLE.test(p.ref) && OFFERABLE.test(p.pool),
  );
  const gone = seen.remove?.units ?? [];
  if (pairs.length === 0 && gone.length === 0) return false;
  const old = scope.unitPools;
  const kept = old && nowMs - old.at < VALUES_TTL_MS && isObject(old.of) ? old.of : {};
  // Nothing new (every unit already noted in its pool, none of the gone ones held) and written lately:
  // a large list run again and again costs a lookup per unit, not a rewrite of the file.
  if (
    recent(old?.at, nowMs) &&
    pairs.every(({ ref, pool }) => Object.hasOwn(kept, ref) && kept[ref] === pool) &&
    !gone.some((ref) => typeof ref === 'string' && Object.hasOwn(kept, ref))
  )
    return false;
  // A Map keeps insertion order: a unit seen again moves to the end, and the oldest are dropped first.
  const of = new Map(Object.entries(kept).filter((e): e is [string, string] => typeof e[1] === 'string'));
  for (const { ref, pool } of pairs) {
    of.delete(ref);
    of.set(ref, pool);
  }
  for (const ref of gone) if (typeof ref === 'string') of.delete(ref);
  const entries = [...of].slice(-MAX_UNITS);
  scope.unitPools = { at: pairs.length > 0 || !old ? nowMs : old.at, of: Object.fromEntries(entries) };
  return true;
}

/** Adds (and removes) values for the account, prunes what is old or over the bounds, and writes the file whole. */
export async function recordValues(env: Env, account: Account, seen: Seen, nowMs: number): Promise<void> {
  const dir = cacheDir(env);
  const nothing = (r: Seen['add']) => Object.values(r ?? {}).every((v) => (v?.length ?? 0) === 0);
  if (nothing(seen.add) && nothing(seen.remove) && (seen.unitPools?.length ?? 0) === 0) return;
  const key = scopeKey(account, env, await readProfileNames(env));
  // The same things seen as by a run of the last REFRESH_MS (`units list` of a large fleet run
  // again): nothing to read but the head of the file, and nothing to write.
  const path = join(dir, FILE);
  const digest = digestOf(seen);
  const mark = readMarks(path)?.[key];
  if (mark?.digest === digest && recent(mark.at, nowMs)) return;
  const cache = readCache(dir);
  const scope: Scope = cache.scopes[key] ?? { at: nowMs, kinds: {} };
  let changed = false;
  for (const kind of VALUE_KINDS) {
    const add = (seen.add?.[kind] ?? []).filter((v): v is string => typeof v === 'string' && OFFERABLE.test(v));
    const remove = new Set(seen.remove?.[kind] ?? []);
    if (add.length === 0 && remove.size === 0) continue;
    const old = scope.kinds[kind];
    const kept = old && nowMs - old.at < VALUES_TTL_MS ? old.values : [];
    // Every value already held, none of the removed ones, and written lately: nothing to write.
    if (recent(old?.at, nowMs)) {
      const held = new Set(kept);
      if (add.every((v) => held.has(v)) && ![...remove].some((v) => held.has(v as string))) continue;
    }
    const values = [...new Set([...add, ...kept])].filter((v) => !remove.has(v)).slice(0, maxOf(kind));
    scope.kinds[kind] = { at: add.length > 0 || !old ? nowMs : old.at, values };
    changed = true;
  }
  if (recordUnitPools(scope, seen, nowMs)) changed = true;
  if (changed) scope.at = nowMs;
  const scopes = Object.entries({ ...cache.scopes, [key]: scope })
    .filter(([, s]) => isObject(s) && typeof s.at === 'number' && nowMs - s.at < VALUES_TTL_MS)
    .sort(([, a], [, b]) => b.at - a.at)
    .slice(0, MAX_SCOPES);
  // Whatever this account's values were written from, this run's are in them now (or were lately).
  const marks = Object.fromEntries(
    Object.entries({ ...(isObject(cache.marks) ? cache.marks : {}), [key]: { digest, at: nowMs } }).filter(
      ([k, m]) => isObject(m) && recent(m.at, nowMs) && scopes.some(([s]) => s === k),
    ),
  );
  // A file past MAX_FILE_BYTES would not be read at all: the least recent accounts go first.
  const textOf = () => `${JSON.stringify({ version: 1, marks, scopes: Object.fromEntries(scopes) })}\n`;
  let text = textOf();
  while (scopes.length > 1 && Buffer.byteLength(text) > MAX_FILE_BYTES) {
    delete marks[scopes.pop()![0]];
    text = textOf();
  }
  ensurePrivateDir(dir);
  // A name no other writer picks ('wx' fails rather than share one); node:crypto would be more
  // of Node's modules to load for every command that records values.
  const tmp = `${path}.${Date.now().toString(36)}${Math.random().toString(36).slice(2)}.tmp`;
  try {
    writeFileSync(tmp, text, { mode: 0o600, flag: 'wx' });
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** How much of the file's head readMarks reads: 16 accounts' marks, with long base URLs. */
const MARKS_HEAD_BYTES = 16 * 1024;

/**
 * The marks alone, from the head of the file: `{"version":1,"marks":{…}` ends where `,"scopes":`
 * first appears (that sequence cannot occur inside a JSON string, whose quotes are escaped).
 * Undefined when the head does not hold them whole (an older file): the caller reads it all.
 */
function readMarks(path: string): Record<string, Mark> | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const head = Buffer.alloc(MARKS_HEAD_BYTES);
    const text = head.toString('utf8', 0, readSync(fd, head, 0, MARKS_HEAD_BYTES, 0));
    const end = text.indexOf(',"scopes":');
    if (end < 0) return undefined;
    const data = JSON.parse(`${text.slice(0, end)}}`) as unknown;
    return isObject(data) && data.version === 1 && isObject(data.marks) ? (data.marks as Record<string, Mark>) : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Two 32-bit FNV-1a-style hashes (different offsets and primes) over everything seen, in order: a collision only
 * costs completion one update, so a cryptographic hash (and node:crypto's load) is not needed.
 */
function digestOf(seen: Seen): string {
  let a = 0x811c9dc5;
  let b = 0x2b7e1516;
  const feed = (v: unknown) => {
    const text = typeof v === 'string' ? v : '\u0001';
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
    }
    a = Math.imul(a ^ 0xffff, 0x01000193);
    b = Math.imul(b ^ 0xfffe, 0x5bd1e995);
  };
  for (const kind of VALUE_KINDS) {
    feed(kind);
    for (const v of seen.add?.[kind] ?? []) feed(v);
    feed('-');
    for (const v of seen.remove?.[kind] ?? []) feed(v);
  }
  feed('pools');
  for (const p of seen.unitPools ?? []) {
    feed(p.ref);
    feed(p.pool);
  }
  return `${(a >>> 0).toString(36)}.${(b >>> 0).toString(36)}`;
}
