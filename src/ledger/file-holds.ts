// The budget holds of one machine, in files beside the journal: `<account>.holds.json`, changed
// under the account's lock (proper-lockfile, replaced whole with write-file-atomic), and each hold
// kept alive by its own lock (`<account>.hold-<id>.lock`, refreshed while its process runs): a hold
// whose lock went stale (within 5 seconds) belongs to a run that was killed.
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import type { Journal } from './journal.js';
import type { HoldChange, HoldRecord, HoldStore, HoldsView, Liveness, Spending } from './store.js';

const LOCK_STALE_MS = 5000;
const LOCK_WAIT_MS = 30_000;

type Lockfile = typeof import('proper-lockfile');

interface HoldsFile {
  holds: HoldRecord[];
}

/** The holds beside a file journal (same dir, same account). */
export function fileHolds(journal: Journal): HoldStore {
  const holdsPath = join(journal.dir, `${journal.account}.holds.json`);
  /** The file a hold's own lock is taken on (proper-lockfile makes the directory `<it>.lock`). */
  const lockPathOf = (id: string) => join(journal.dir, `${journal.account}.hold-${id}`);
  const lockfile = async (): Promise<Lockfile> => (await import('proper-lockfile')).default;

  const viewOf = (file: () => Promise<HoldsFile>): HoldsView => {
    let entries: Promise<Spending> | undefined;
    return {
      async records() {
        const lf = await lockfile();
        const out: { rec: HoldRecord; alive: boolean }[] = [];
        for (const rec of (await file()).holds) {
          const alive =
            rec.endedAt === undefined && (await lf.check(lockPathOf(rec.id), { realpath: false, stale: LOCK_STALE_MS }).catch(() => false));
          out.push({ rec, alive });
        }
        return out;
      },
      spending(since) {
        // Streamed in read()'s order (the sums are of floats, so the same order gives the same figure).
        entries ??= (async () => {
          const enteredBy = new Map<string, number>();
          let spent = 0;
          for await (const page of journal.pages())
            for (const e of page) {
              if (Date.parse(e.at) > since) spent += e.priceUsd;
              if (e.hold) enteredBy.set(e.hold, (enteredBy.get(e.hold) ?? 0) + e.priceUsd);
            }
          return { spent, enteredBy };
        })();
        return entries;
      },
    };
  };

  return {
    where: holdsPath,
    async locked(warn, fn) {
      const [lf, { default: writeFileAtomic }] = await Promise.all([lockfile(), import('write-file-atomic')]);
      await mkdir(journal.dir, { recursive: true, mode: 0o700 });
      const waiting = warn
        ? setTimeout(() => warn(`waiting for the budget lock ${holdsPath}: another proxyctl run is taking its hold`), 5000)
        : undefined;
      waiting?.unref();
      let release: () => Promise<void>;
      try {
        release = await lf.lock(holdsPath, {
          realpath: false,
          stale: LOCK_STALE_MS,
          retries: { retries: 10_000, factor: 1.5, minTimeout: 15, maxTimeout: 250, randomize: true, maxRetryTime: LOCK_WAIT_MS },
          onCompromised: () => undefined,
        });
      } catch (err) {
        throw new UsageError(`cannot take the budget lock ${holdsPath}: ${(err as Error).message}; nothing was charged`, {
          code: 'budget_locked',
        });
      } finally {
        if (waiting) clearTimeout(waiting);
      }
      try {
        let current: Promise<HoldsFile> | undefined;
        const file = () => (current ??= readHolds(holdsPath));
        const change = async (c: HoldChange) => {
          const gone = new Set([...(c.remove ?? []), ...(c.put ?? []).map((h) => h.id)]);
          const next = { holds: [...(await file()).holds.filter((h) => !gone.has(h.id)), ...(c.put ?? [])] };
          await writeFileAtomic(holdsPath, `${JSON.stringify(next)}\n`, { mode: 0o600 });
          current = Promise.resolve(next);
        };
        return await fn(viewOf(file), change);
      } finally {
        await release().catch(() => undefined);
      }
    },
    view: () => viewOf(() => readHolds(holdsPath)),
    async keepAlive(id): Promise<Liveness> {
      const lf = await lockfile();
      await mkdir(journal.dir, { recursive: true, mode: 0o700 });
      const path = lockPathOf(id);
      const unlock = await lf.lock(path, { realpath: false, stale: LOCK_STALE_MS, update: 1000, onCompromised: () => undefined });
      return {
        release: async () => {
          await unlock().catch(() => undefined);
          await rm(path, { recursive: true, force: true }).catch(() => undefined);
        },
      };
    },
    async forget(ids) {
      for (const id of ids) await rm(`${lockPathOf(id)}.lock`, { recursive: true, force: true }).catch(() => undefined);
    },
  };
}

async function readHolds(path: string): Promise<HoldsFile> {
  try {
    const v = JSON.parse(await readFile(path, 'utf8')) as Partial<HoldsFile>;
    const holds = Array.isArray(v.holds) ? v.holds : [];
    return {
      holds: holds
        .filter((h) => h && typeof h.id === 'string' && typeof h.at === 'string' && Number.isFinite(h.amountUsd))
        .map((h) => ({ ...h, refs: Array.isArray(h.refs) ? h.refs.filter((r) => typeof r === 'string') : [] })),
    };
  } catch {
    return { holds: [] };
  }
}
