// Piped (tab-separated) output a script can cut: sub-objects become dotted keys, and the uptime
// summary says in words why there is no figure.
import { afterEach, expect, it } from 'vitest';
import { type Kit, startKit } from '../helpers/index.js';

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

it('me, piped: one key per line, sub-objects flattened to dotted keys', async () => {
  kit = await startKit({ balance: 100 });
  const r = await kit.run(['me']);
  expect(r.exitCode).toBe(0);
  const rows = String(r.stdout).trimEnd().split('\n');
  expect(rows).toEqual(
    expect.arrayContaining(['balance\t100', 'units.active\t0', 'units.total\t0', 'webhook.url\t-', 'webhook.enabled\tfalse']),
  );
  expect(rows.filter((l) => l.startsWith('prices.'))).toHaveLength(5);
  expect(String(r.stdout)).not.toContain('{');
});

it('me uptime with no units: "not measured" and why, one line each on stderr', async () => {
  kit = await startKit();
  const r = await kit.run(['me', 'uptime']);
  expect(r.exitCode).toBe(0);
  const lines = String(r.stderr).trimEnd().split('\n');
  expect(lines[0]).toMatch(/^Uptime: not measured \(no units in this window\) {2}\S+ → \S+$/);
  expect(lines[1]).toBe('slots: 0 up, 0 down, 0 excluded (probes that could not reach the provider)');
  expect(String(r.stderr)).not.toContain('\\n');
});
