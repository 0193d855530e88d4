// The guided purchase (a real terminal: script(1) gives the built binary a pty) refuses a pool
// that is not available exactly as `units create --pool … --period …` does: same exit code, same
// message, no confirmation asked, nothing bought. Both flows go through one quote, which checks.
import { afterEach, describe, expect, it } from 'vitest';
import { inTerminal, startKit, type Kit, waitForText } from '../helpers/index.js';

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

const kitEnv = (k: Kit) => ({ ...k.home.env, PROXYCTL_BASE_URL: k.sb.baseUrl, PROXYCTL_API_KEY: k.sb.apiKey });

async function unavailablePool(k: Kit): Promise<string> {
  const res = await k.api<{ data: { poolId: string; available: boolean }[] }>('/pools');
  return res.data.find((p) => !p.available)!.poolId;
}

describe('guided create and an unavailable pool', () => {
  it('--pool of an unavailable pool: refused before any question, like the flag-driven create', async () => {
    kit = await startKit({ balance: 500 });
    const pool = await unavailablePool(kit);
    const flags = await kit.run(['units', 'create', '--pool', pool, '--period', '7d']);
    expect(flags.exitCode).toBe(5);
    expect(String(flags.stderr)).toContain(`pool ${pool} is not available right now`);

    const t = inTerminal(kitEnv(kit), ['units', 'create', '--pool', pool]);
    const asked = await t.until('Period');
    if (asked) t.child.kill('SIGKILL');
    const r = await t.child;
    expect(asked, t.screen()).toBe(false);
    expect(r.exitCode).toBe(5);
    expect(t.screen()).toContain(`pool ${pool} is not available right now`);
    expect(t.screen()).toContain('code pool_not_available');
    const state = await kit.state();
    expect(state.units).toEqual([]);
    expect(state.balanceUsd).toBe(500);
  });

  it('a pool that stops being available after it was chosen: refused at the quote, no confirmation asked', async () => {
    kit = await startKit({ balance: 500 });
    const t = inTerminal(kitEnv(kit), ['units', 'create']);
    let from = 0;
    for (const prompt of ['Country', 'Pool']) {
      await waitForText(t, prompt, from);
      from = t.screen().length;
      t.key('\r');
    }
    await waitForText(t, 'Period', from);
    // The answered pool prompt reads "✔ Pool XX-11 …".
    const chosen = /Pool\s+([A-Z]{2}-\d+)/.exec(t.screen().slice(0, t.screen().lastIndexOf('Period')))?.[1];
    expect(chosen, t.screen()).toBeDefined();
    kit.sb.world.poolById.get(chosen!)!.available = false;
    from = t.screen().length;
    t.key('\r');
    for (const prompt of ['Protocol', 'How many', 'For which customer']) {
      await waitForText(t, prompt, from);
      from = t.screen().length;
      t.key('\r');
    }
    const confirmed = await t.until('Buy for', from);
    if (confirmed) t.child.kill('SIGKILL');
    const r = await t.child;
    expect(confirmed, t.screen()).toBe(false);
    expect(r.exitCode).toBe(5);
    expect(t.screen()).toContain(`pool ${chosen} is not available right now`);
    const state = await kit.state();
    expect(state.units).toEqual([]);
    expect(state.balanceUsd).toBe(500);
  });
});
