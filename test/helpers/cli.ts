// Spawns the built binary exactly as a user would, in a temporary config dir and home, so no test
// can read or write the real user's config.
import { execa, type Options, type ResultPromise } from 'execa';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/proxyctl.js', import.meta.url));
/** The Node that runs the spawned binary: `node` on PATH, or PROXYCTL_TEST_NODE (scripts/test-node-versions.mjs). */
export const NODE = process.env.PROXYCTL_TEST_NODE || 'node';

export interface TempHome {
  dir: string;
  configDir: string;
  env: Record<string, string>;
  cleanup(): void;
}

export function tempHome(): TempHome {
  const dir = mkdtempSync(join(tmpdir(), 'proxyctl-test-'));
  const configDir = join(dir, 'config');
  return {
    dir,
    configDir,
    env: {
      HOME: dir,
      XDG_CONFIG_HOME: join(dir, 'xdg'),
      PROXYCTL_CONFIG_DIR: configDir,
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Variables from the developer's shell that would change the tool's behaviour. */
const SCRUB = [
  'PROXYCTL_API_KEY',
  'PROXYCTL_BASE_URL',
  'PROXYCTL_PROFILE',
  'PROXYCTL_DEBUG',
  'PROXYCTL_LEDGER_URL',
  'NO_COLOR',
  'FORCE_COLOR',
  'CI',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
];

export function cleanEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const k of SCRUB) env[k] = undefined;
  return { ...env, ...extra };
}

export function proxyctl(args: string[], opts: Options & { home: TempHome; env?: Record<string, string | undefined> }): ResultPromise {
  const { home, env, ...rest } = opts;
  return execa(NODE, [BIN, ...args], {
    reject: false,
    stdin: 'ignore',
    timeout: 60_000,
    ...rest,
    env: cleanEnv({ ...home.env, ...env }),
    extendEnv: true,
  } as Options) as ResultPromise;
}

/** A finished run as plain text: `await ran(proxyctl([...], { home }))`. */
export async function ran(p: ResultPromise): Promise<{ code: number; out: string; err: string }> {
  const r = await p;
  return { code: r.exitCode ?? -1, out: String(r.stdout), err: String(r.stderr) };
}
