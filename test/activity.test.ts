// What a client waits for is its own, per request: one of several concurrent requests ending does
// not clear what the others still wait for (a spinner or bar would go blank mid-wait), and two
// clients in one process never show each other's waits.
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import { ApiClient } from '../src/api/client.js';
import { account } from '../src/api/shapes.js';
import { json, type ScriptedServer, startScriptedServer } from './helpers/index.js';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const client = (url: string) =>
  new ApiClient({ baseUrl: url, apiKey: 'k', timeoutMs: 20_000, env: {}, signal: new AbortController().signal, userAgent: 't' });

describe('Activity', () => {
  it('a request that ends leaves the wait of one still on its way, and another client sees neither', async () => {
    const held: ServerResponse[] = [];
    let arrived: () => void = () => undefined;
    const both = new Promise<void>((r) => (arrived = r));
    server = await startScriptedServer((_req, res) => {
      held.push(res);
      if (held.length === 2) arrived();
    });
    const c = client(server.url);
    const other = client(server.url);
    const first = c.get('/account', account);
    const second = c.get('/account', account);
    await both;
    const host = new URL(server.url).host;
    expect(c.activity.describeWait()).toMatch(new RegExp(`^waiting for ${host.replace(/\./g, '\\.')}: \\d+s of 20s$`));
    expect(other.activity.describeWait()).toBeUndefined();
    json(held[0]!, 200, { balanceUsd: 1, discount: 0 });
    await first;
    expect(c.activity.describeWait()).toMatch(/^waiting for /);
    json(held[1]!, 200, { balanceUsd: 1, discount: 0 });
    await second;
    expect(c.activity.describeWait()).toBeUndefined();
  });

  it('rate-limit waits: the earliest end is shown while any request waits, none once all are done', async () => {
    const { Activity } = await import('../src/activity.js');
    const a = new Activity();
    const seen: (number | undefined)[] = [];
    a.onRateWait((u) => seen.push(u));
    const endLate = a.beginRateWait(Date.now() + 30_000);
    const endSoon = a.beginRateWait(Date.now() + 5_000);
    expect(a.describeRateWait()).toBe('waiting 5 s for the rate limit');
    endSoon();
    expect(a.describeRateWait()).toBe('waiting 30 s for the rate limit');
    endLate();
    expect(a.describeRateWait()).toBeUndefined();
    expect(seen.at(-1)).toBeUndefined();
  });
});
