// `webhook log` returns every delivery (streamed page by page), not the first page of 25;
// `--limit N` caps it, `--page`/`--page-size` fetch one page, `--all` stays accepted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Kit, type ScriptedServer, startKit, startScriptedServer } from '../helpers/index.js';

const EVENTS = 60;
let kit: Kit;
let receiver: ScriptedServer;
let every: string[];

beforeAll(async () => {
  kit = await startKit({ rateLimit: 100_000 });
  receiver = await startScriptedServer((_req, res) => void res.writeHead(204).end());
  expect((await kit.run(['webhook', 'set', `${receiver.url}/hook`])).exitCode).toBe(0);
  for (let i = 0; i < EVENTS; i++) kit.sb.world.emit('unit.modified', { proxyRef: `PRX-${i}` });
  await kit.sb.deliveriesIdle();
  const log = await kit.api<{ data: { id: string }[] }>('/webhook/deliveries?pageSize=100');
  every = log.data.map((d) => d.id);
  expect(every.length).toBeGreaterThanOrEqual(EVENTS);
});
afterAll(async () => {
  await kit.close();
  await receiver.close();
});

const ids = (out: unknown) => (JSON.parse(String(out)) as { id: string }[]).map((d) => d.id);
const logRequests = (stderr: unknown) =>
  [...String(stderr).matchAll(/\[debug\] → GET \S+\/webhook\/deliveries\?(\S*)/g)].map((m) => new URLSearchParams(m[1]).toString());

describe('webhook log returns every delivery', () => {
  it('with no flags: every delivery, newest first, as --all does', async () => {
    const r = await kit.run(['webhook', 'log', '--json']);
    expect(r.exitCode).toBe(0);
    expect(ids(r.stdout)).toEqual(every);
    const all = await kit.run(['webhook', 'log', '--all', '--json']);
    expect(all.stdout).toBe(r.stdout);
  });

  it('--limit 7: the newest 7, from one request of 7; --page 2 --page-size 25: exactly that page', async () => {
    const r = await kit.run(['webhook', 'log', '--limit', '7', '--json', '--debug']);
    expect(r.exitCode).toBe(0);
    expect(ids(r.stdout)).toEqual(every.slice(0, 7));
    expect(logRequests(r.stderr)).toEqual(['page=1&pageSize=7']);
    const page = await kit.run(['webhook', 'log', '--page', '2', '--page-size', '25', '--json', '--debug']);
    expect(page.exitCode).toBe(0);
    expect(ids(page.stdout)).toEqual(every.slice(25, 50));
    expect(logRequests(page.stderr)).toEqual(['page=2&pageSize=25']);
  });

  it('--follow with --limit is a usage error (exit 2)', async () => {
    const r = await kit.run(['webhook', 'log', '--follow', '--limit', '3']);
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain('--follow cannot be combined with --all, --limit or --page');
  });
});
