// Customers as tags in descriptions (customer=NAME, other text kept beside it): set on many units
// at once by `units modify` (named, piped on stdin, or selected), read back by `units list
// --customer` in every format, with the sandbox's own descriptions as the truth.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Kit, pickPools, startKit } from '../helpers/index.js';

let kit: Kit;
let refs: string[];
let other: string;
let poolA: string;
beforeAll(async () => {
  kit = await startKit({ balance: 1000, rateLimit: 10_000 });
  const pools = await pickPools(kit);
  poolA = pools[0]!.poolId;
  const made = await kit.run(['units', 'create', '--pool', poolA, '--period', '24h', '--count', '3', '--json']);
  refs = (JSON.parse(String(made.stdout)) as { proxyRef: string }[]).map((u) => u.proxyRef);
  const b = await kit.run(['units', 'create', '--pool', pools[1]!.poolId, '--period', '24h', '--json']);
  other = (JSON.parse(String(b.stdout)) as { proxyRef: string }).proxyRef;
});
afterAll(() => kit.close());

const descriptions = async () =>
  Object.fromEntries((await kit.state()).units.map((u) => [u.proxyRef, (u as { description?: string }).description ?? '']));

describe('customers', () => {
  it('tags named units, keeping their other text, and lists them by customer', async () => {
    expect((await kit.run(['units', 'modify', refs[0]!, '--description', 'vip line'])).exitCode).toBe(0);
    const r = await kit.run(['units', 'modify', refs[0]!, refs[1]!, '--customer', 'acme', '--json']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(JSON.parse(String(r.stdout))).toEqual([
      { proxyRef: refs[0], modified: true },
      { proxyRef: refs[1], modified: true },
    ]);
    const d = await descriptions();
    expect(d[refs[0]!]).toBe('customer=acme vip line');
    expect(d[refs[1]!]).toBe('customer=acme');
    // A new tag replaces the old one, never stacks.
    expect((await kit.run(['units', 'modify', refs[1]!, '--customer', 'beta'])).exitCode).toBe(0);
    expect((await descriptions())[refs[1]!]).toBe('customer=beta');

    const listed = await kit.run(['units', 'list', '--customer', 'ACME', '--json']);
    expect((JSON.parse(String(listed.stdout)) as { proxyRef: string }[]).map((u) => u.proxyRef)).toEqual([refs[0]]);
    const conn = await kit.run(['units', 'list', '--customer', 'beta', '-o', 'conn']);
    expect(String(conn.stdout).split('\n')).toHaveLength(1);
    expect(String(conn.stdout)).toMatch(/^\d+\.\d+\.\d+\.\d+:\d+:[^:]+:[^:]+$/);
  });

  it('reads refs piped on stdin (-) and selects by pool or by tag', async () => {
    const piped = await kit.run(['units', 'modify', '-', '--customer', 'gamma'], {
      input: `${refs[2]}\n# a comment\n${other}\n`,
      stdin: undefined,
    });
    expect(piped.exitCode, String(piped.stderr)).toBe(0);
    let d = await descriptions();
    expect([d[refs[2]!], d[other]]).toEqual(['customer=gamma', 'customer=gamma']);

    const byPool = await kit.run(['units', 'modify', '--pool', poolA, '--tagged', 'gamma', '--customer', 'delta', '--json']);
    expect(byPool.exitCode, String(byPool.stderr)).toBe(0);
    expect(JSON.parse(String(byPool.stdout))).toEqual([{ proxyRef: refs[2], modified: true }]);
    d = await descriptions();
    expect([d[refs[2]!], d[other]]).toEqual(['customer=delta', 'customer=gamma']);
  });

  it('refuses a bad name, refs with a selection, and nothing to change, before any request', async () => {
    for (const [args, text] of [
      [['units', 'modify', refs[0]!, '--customer', 'a b'], '--customer must be 1 to 64'],
      [['units', 'modify', refs[0]!, '--pool', poolA, '--customer', 'x'], 'not both'],
      [['units', 'modify', refs[0]!], 'nothing to change'],
      [['units', 'list', '--customer', 'bad name!'], '--customer must be'],
    ] as const) {
      const r = await kit.run([...args]);
      expect(r.exitCode).toBe(2);
      expect(String(r.stderr)).toContain(text);
    }
  });
});
