// Raw HTTP against the sandbox for webhook tests: events fired by real unit operations and by the
// control endpoint, without going through proxyctl (so the CLI is only what is under test).
import type { Sandbox } from '../../src/sandbox/index.js';

export async function sandboxPost(sb: Sandbox, path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${sb.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': sb.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Buys a unit with POST /units, which emits unit.created. */
export async function createUnit(sb: Sandbox): Promise<string> {
  const pool = sb.world.pools.find((p) => p.available)!;
  const r = await sandboxPost(sb, '/api/reseller/v1/units', { poolId: pool.poolId, period: '7d', protocol: 'socks5' });
  if (r.status !== 201) throw new Error(`create failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.proxyRef as string;
}

export async function trigger(sb: Sandbox, event: string, data: Record<string, unknown> = {}): Promise<void> {
  const r = await sandboxPost(sb, '/_sandbox/trigger', { event, ...data });
  if (r.status !== 202) throw new Error(`trigger failed: ${r.status} ${JSON.stringify(r.body)}`);
}
