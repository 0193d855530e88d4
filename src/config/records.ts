// The purchase records (which unit each item of a batch bought, the generation it is on, what a key
// was used for), kept like the ledger: one JSON object per line, `{"k":…,"v":…,"at":…}`, in
// `purchases.jsonl` in the data dir. A record is one write(2) of one line to a file opened with
// O_APPEND, so parallel processes never overwrite each other and the 100,000th purchase costs what
// the first did (the JSON file before it was rewritten whole, with fsync, on every record). The
// last line of a key wins; a line cut by kill -9 is skipped (and the line after it still read).
//
// A process reads the file once, on its first look-up, into a map, and then only what was appended
// since (one stat a look-up), so a long-running process sees records other processes append. A
// line as `set` writes it is indexed by its key and time without JSON.parse; its value is parsed
// when asked for. No fsync: a kill cannot lose a written line (the ledger's choice too).
//
// Compacted rarely: when most lines are dead (overwritten, or older than any reader trusts), a
// process rewrites the live ones under the file's lock (proper-lockfile, write-file-atomic). No
// line appended meanwhile is lost: the compactor first seals the old file (takes its write bit
// away), then reads it whole and renames the new one over it; a writer checks its file's mode
// after each write (fstat, the same inode it wrote to), and one that finds it sealed writes its
// line again under the lock, into the new file. A compactor killed after sealing leaves a sealed
// file, which the next writer unseals under the lock.
//
// A `purchases.json` of an earlier version is read beneath the lines (they are newer) until the
// first compaction folds its records into the new file and removes it.
import {
  chmodSync,
  closeSync,
  existsSync,
  fchmodSync,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { CACHE_MAX_AGE_MS, ensurePrivateDir, type CacheStore } from './store.js';

/** A record: its value, or (as read from the file, until first asked for) the line that holds it. */
interface Entry {
  at: number;
  v?: unknown;
  line?: string;
}

/** Below this many lines a file is never worth compacting. */
const COMPACT_MIN_LINES = 2048;
/** Compacted once its lines are this many times the live records. */
const COMPACT_RATIO = 2;
const LOCK_STALE_MS = 5000;
const LOCK_WAIT_MS = 30_000;
const WRITE_BIT = 0o200;
const HEAD = '{"k":"';

const lineOf = (k: string, e: Entry) => (e.line !== undefined ? `${e.line}\n` : `${JSON.stringify({ k, v: e.v, at: e.at })}\n`);
const fresh = (e: Entry, now: number) => now - e.at < CACHE_MAX_AGE_MS;
const sealed = (mode: number) => (mode & WRITE_BIT) === 0;

function recordValue(e: Entry): unknown {
  if (e.line !== undefined) {
    e.v = parseRecord(e.line)?.e.v;
    e.line = undefined;
  }
  return e.v;
}

/**
 * Each whole line of `text` as a record, skipping what is not one, in order. A line as `set` writes
 * it is taken apart without parsing (a process may read 100,000 of them to look up a few); its
 * value is parsed when first asked for.
 */
function eachRecord(text: string, into: (k: string, e: Entry) => void): void {
  for (let s = 0; s < text.length; ) {
    let end = text.indexOf('\n', s);
    if (end < 0) end = text.length;
    if (end > s) {
      const r = asWritten(text, s, end) ?? parseLine(text.slice(s, end));
      if (r) into(r.k, r.e);
    }
    s = end + 1;
  }
}

/** `{"k":"KEY","v":…,"at":N}` with a key that needs no unescaping, or undefined (then it is parsed). */
function asWritten(text: string, s: number, end: number): { k: string; e: Entry } | undefined {
  if (!text.startsWith(HEAD, s) || text.charCodeAt(end - 1) !== 0x7d) return undefined;
  const q = text.indexOf('"', s + HEAD.length);
  if (q < 0 || q >= end || !text.startsWith(',"v":', q + 1)) return undefined;
  const k = text.slice(s + HEAD.length, q);
  if (k.includes('\\')) return undefined;
  // A line that starts with the rest of one cut by a kill holds the start of a second record.
  const next = text.indexOf(HEAD, s + 1);
  if (next >= 0 && next < end) return undefined;
  const a = text.lastIndexOf(',"at":', end);
  if (a <= q || a + 6 >= end - 1) return undefined;
  const at = Number(text.slice(a + 6, end - 1));
  if (!Number.isFinite(at)) return undefined;
  return { k, e: { at, line: text.slice(s, end) } };
}

/** One line as a record, or undefined. A line that starts with the rest of one cut by a kill keeps the record behind it. */
function parseLine(line: string): { k: string; e: Entry } | undefined {
  const whole = parseRecord(line);
  if (whole) return whole;
  for (let i = line.indexOf('{"k":', 1); i > 0; i = line.indexOf('{"k":', i + 1)) {
    const rest = parseRecord(line.slice(i));
    if (rest) return rest;
  }
  return undefined;
}

function parseRecord(text: string): { k: string; e: Entry } | undefined {
  let r: unknown;
  try {
    r = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof r !== 'object' || r === null) return undefined;
  const { k, v, at } = r as { k?: unknown; v?: unknown; at?: unknown };
  if (typeof k !== 'string' || v === undefined || typeof at !== 'number' || !Number.isFinite(at)) return undefined;
  return { k, e: { v, at } };
}

/** The entries of an earlier version's JSON file (`{ entries: { key: { …, at } } }`), or none. */
function readLegacy(path: string, now: number): Map<string, Entry> {
  const out = new Map<string, Entry>();
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return out;
  }
  const entries = (data as { entries?: unknown } | null)?.entries;
  if (typeof entries !== 'object' || entries === null) return out;
  for (const [k, v] of Object.entries(entries)) {
    const stamp = (v as { at?: unknown } | null)?.at;
    const e = { v, at: typeof stamp === 'number' && Number.isFinite(stamp) ? stamp : now };
    if (fresh(e, now)) out.set(k, e);
  }
  return out;
}

/** Reads `fd` from `from` to `to`, whole lines only: their text and the bytes they took. */
function readLines(fd: number, from: number, to: number): { text: string; bytes: number } {
  if (to <= from) return { text: '', bytes: 0 };
  const buf = Buffer.allocUnsafe(to - from);
  let got = 0;
  while (got < buf.length) {
    const n = readSync(fd, buf, got, buf.length - got, from + got);
    if (n === 0) break;
    got += n;
  }
  const end = got > 0 ? buf.lastIndexOf(0x0a, got - 1) : -1;
  if (end < 0) return { text: '', bytes: 0 };
  return { text: buf.toString('utf8', 0, end), bytes: end + 1 };
}

export interface RecordFile extends CacheStore {
  readonly path: string;
}

/**
 * The purchase records in `dir/name` (JSON lines), with `legacyName` (the JSON file of an earlier
 * version) read beneath them until the first compaction. `what` names the file in messages.
 */
export function openRecordFile(dir: string, name: string, legacyName: string, what: string): RecordFile {
  ensurePrivateDir(dir);
  const path = join(dir, name);
  const legacyPath = join(dir, legacyName);

  let map = new Map<string, Entry>();
  let loaded = false;
  /** The file read so far: its inode and the bytes of whole lines taken from it. */
  let ino: number | undefined;
  let offset = 0;
  /** Lines in the file as read so far (live or not), to judge when compacting pays. */
  let lines = 0;
  let legacy = false;
  let compacting: Promise<void> | undefined;

  const take = (text: string, now: number) =>
    eachRecord(text, (k, e) => {
      lines += 1;
      if (fresh(e, now)) map.set(k, e);
      else map.delete(k);
    });

  /** Everything again: the first look-up, or the file was replaced (compacted by another process). */
  const reload = (fd: number | undefined, now: number) => {
    legacy = existsSync(legacyPath);
    map = legacy ? readLegacy(legacyPath, now) : new Map();
    ino = undefined;
    offset = 0;
    lines = 0;
    if (fd === undefined) return;
    const st = fstatSync(fd);
    const read = readLines(fd, 0, st.size);
    ino = st.ino;
    offset = read.bytes;
    take(read.text, now);
  };

  /** Brings the map up to the file as it is now: usually one stat, plus the lines appended since. */
  const refresh = () => {
    const now = Date.now();
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      if (!loaded || ino !== undefined) reload(undefined, now);
      loaded = true;
      return;
    }
    if (loaded && st.ino === ino && st.size === offset) return;
    const fd = openSync(path, 'r');
    try {
      const fst = fstatSync(fd);
      if (!loaded || fst.ino !== ino || fst.size < offset) reload(fd, now);
      else {
        const read = readLines(fd, offset, fst.size);
        offset += read.bytes;
        take(read.text, now);
      }
      loaded = true;
    } finally {
      closeSync(fd);
    }
  };

  /** One line in one write; false when the file it went into was sealed by a compactor meanwhile. */
  const append = (line: Buffer): boolean => {
    let fd: number;
    try {
      fd = openSync(path, 'a', 0o600);
    } catch (err) {
      // Sealed (a compaction in progress, or a compactor killed), for a user the mode binds
      // (EPERM: a read-only file on Windows).
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM') return false;
      throw err;
    }
    try {
      let done = 0;
      while (done < line.length) done += writeSync(fd, line, done, line.length - done);
      return !sealed(fstatSync(fd).mode);
    } finally {
      closeSync(fd);
    }
  };

  const lockOptions = (wait: boolean, onCompromised: (err: Error) => void) => ({
    realpath: false,
    stale: LOCK_STALE_MS,
    retries: wait ? { retries: 10_000, factor: 1.5, minTimeout: 15, maxTimeout: 250, randomize: true, maxRetryTime: LOCK_WAIT_MS } : 0,
    onCompromised,
  });

  /** Appends under the lock: after a compaction, into the new file; after a killed one, into the unsealed old one. */
  const appendLocked = async (line: Buffer): Promise<void> => {
    const { default: lockfile } = await import('proper-lockfile');
    let release: () => Promise<void>;
    try {
      release = await lockfile.lock(
        path,
        lockOptions(true, () => undefined),
      );
    } catch (err) {
      throw new UsageError(`cannot lock ${what} ${path}: ${(err as Error).message}`, { code: 'config_locked' });
    }
    try {
      try {
        if (sealed(statSync(path).mode)) chmodSync(path, 0o600);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
      if (!append(line)) throw new UsageError(`${what} ${path} stays read-only; the record was not kept`);
    } finally {
      await release().catch(() => undefined);
    }
  };

  /** Rewrites the live records, if no other process holds the lock (then it is left for later). */
  const compact = async (): Promise<void> => {
    const [{ default: lockfile }, { default: writeFileAtomic }] = await Promise.all([
      import('proper-lockfile'),
      import('write-file-atomic'),
    ]);
    let lost = false;
    let release: () => Promise<void>;
    try {
      release = await lockfile.lock(
        path,
        lockOptions(false, () => {
          lost = true;
        }),
      );
    } catch {
      return;
    }
    let sealedIno: number | undefined;
    try {
      const now = Date.now();
      const hadLegacy = existsSync(legacyPath);
      const live = hadLegacy ? readLegacy(legacyPath, now) : new Map<string, Entry>();
      // Created if missing (only the old file's records to fold in), so that it too is sealed
      // before it is read: a writer may create it meanwhile.
      const fd = openSync(path, 'a+', 0o600);
      try {
        const st = fstatSync(fd);
        // Sealed before the read: a line written after this is written again by its writer.
        fchmodSync(fd, st.mode & 0o777 & ~WRITE_BIT);
        sealedIno = st.ino;
        eachRecord(readLines(fd, 0, fstatSync(fd).size).text, (k, e) => live.set(k, e));
      } finally {
        closeSync(fd);
      }
      let text = '';
      let count = 0;
      for (const [k, e] of live) {
        if (!fresh(e, now)) continue;
        text += lineOf(k, e);
        count += 1;
      }
      if (lost) return;
      await writeFileAtomic(path, text, { mode: 0o600 });
      sealedIno = undefined;
      if (hadLegacy) unlinkSync(legacyPath);
      // The new file as this process knows it; lines appended to it since are read by the next look-up.
      map = new Map([...live].filter(([, e]) => fresh(e, now)));
      ino = statSync(path).ino;
      offset = Buffer.byteLength(text);
      lines = count;
      retryAt = 0;
      legacy = false;
      loaded = true;
    } catch {
      // Not compacted this time: the records are all still in the file.
    } finally {
      if (sealedIno !== undefined) {
        try {
          if (statSync(path).ino === sealedIno) chmodSync(path, 0o600);
        } catch {
          // gone or replaced: nothing to unseal
        }
      }
      await release().catch(() => undefined);
    }
  };

  /** Not tried again in this process until the file has grown this far (a compaction skipped or failed). */
  let retryAt = 0;
  const due = () => lines >= retryAt && (legacy || (lines >= COMPACT_MIN_LINES && lines >= COMPACT_RATIO * map.size));

  return {
    path,
    get: <T>(key: string) => {
      refresh();
      const e = map.get(key);
      return (e ? recordValue(e) : undefined) as T | undefined;
    },
    async set(key, value) {
      const e: Entry = { v: value, at: Date.now() };
      const line = Buffer.from(lineOf(key, e));
      if (!append(line)) await appendLocked(line);
      try {
        refresh();
      } catch {
        // The record is in the file; the next look-up reads it.
      }
      map.set(key, e);
      if (due() && !compacting) {
        retryAt = lines + COMPACT_MIN_LINES;
        compacting = compact().finally(() => {
          compacting = undefined;
        });
        await compacting;
      }
    },
  };
}
