// A refusal made before any request (or without one answering it) names no HTTP status: "HTTP 402"
// or "HTTP 404" beside it would say a server answered so. A server's own answer still shows it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKit, type Kit } from '../helpers/index.js';

let kit: Kit;
beforeAll(async () => {
  kit = await startKit({ balance: 3 });
});
afterAll(() => kit.close());

const charging = (k: Kit) => k.sb.requestLog().filter((r) => r.method !== 'GET').length;

describe('refusals made here', () => {
  it('a balance that does not cover the quote: code, exit 6, no "HTTP 402" (human and JSON); nothing sent that charges', async () => {
    const before = charging(kit);
    const r = await kit.run(['units', 'create', '--pool', 'US-11', '--period', '30d', '--yes']);
    expect(r.exitCode, String(r.stderr)).toBe(6);
    expect(String(r.stderr)).toMatch(/nothing was bought \(code insufficient_balance\)\n/);
    expect(String(r.stderr)).not.toContain('HTTP');
    const j = await kit.run(['units', 'create', '--pool', 'US-11', '--period', '30d', '--yes', '--json']);
    expect(j.exitCode).toBe(6);
    const { error } = JSON.parse(String(j.stderr).trim().split('\n').at(-1)!) as { error: Record<string, unknown> };
    expect(error).toMatchObject({ code: 'insufficient_balance', required: expect.any(Number) });
    expect(error).not.toHaveProperty('status');
    expect(charging(kit)).toBe(before);
  });

  it('a pool the catalogue lists unavailable: code pool_not_available, exit 5, no "HTTP 404"', async () => {
    await kit.control('/trigger', { event: 'server.down', poolId: 'US-11' });
    try {
      const r = await kit.run(['units', 'create', '--pool', 'US-11', '--period', '3h', '--yes']);
      expect(r.exitCode, String(r.stderr)).toBe(5);
      expect(String(r.stderr)).toContain('pool US-11 is not available right now (code pool_not_available)\n');
    } finally {
      await kit.control('/trigger', { event: 'server.up', poolId: 'US-11' });
    }
  });

  it("a server's own answer still names its status and request id", async () => {
    const r = await kit.run(['units', 'get', 'PRX-999999']);
    expect(r.exitCode).toBe(5);
    expect(String(r.stderr)).toMatch(/\(code unit_not_found, HTTP 404, request id req_\w+\)/);
  });
});
