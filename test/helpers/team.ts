// The machines of a team on one account, for tests of a shared ledger (test/ledger/team*.test.ts,
// test/mcp/team.test.ts): each its own HOME, XDG dirs and config dir, the account's key and the
// sandbox's URL in its environment, removed by cleanupMachines().
import { expect } from 'vitest';
import { proxyctl, type TempHome, tempHome } from './cli.js';
import type { Kit } from './sandbox-kit.js';

export interface Machine {
  home: TempHome;
  run(args: string[], env?: Record<string, string>): ReturnType<typeof proxyctl>;
}

const homes: TempHome[] = [];

/** A machine of the team (env: e.g. PROXYCTL_LEDGER_URL for the shared ledger). */
export function machine(k: Kit, env: Record<string, string> = {}): Machine {
  const home = tempHome();
  homes.push(home);
  return {
    home,
    run: (args, more = {}) =>
      proxyctl(args, { home, reject: false, env: { PROXYCTL_BASE_URL: k.sb.baseUrl, PROXYCTL_API_KEY: k.sb.apiKey, ...env, ...more } }),
  };
}

/** Removes the machines' homes (afterEach). */
export function cleanupMachines(): void {
  for (const h of homes.splice(0)) h.cleanup();
}

/** A run that must exit 0 (its stderr in the assertion message otherwise). */
export async function succeeds(p: ReturnType<typeof proxyctl>) {
  const r = await p;
  expect(r.exitCode, String(r.stderr)).toBe(0);
  return r;
}
