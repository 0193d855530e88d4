// A base URL given with the API's path (as the API's docs show requests) is the base URL before
// it: login trims it, says so and saves the trimmed URL; --base-url and the environment do the same.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loginWithStdin, startKit, type Kit } from '../helpers/index.js';

let kit: Kit;
beforeAll(async () => {
  kit = await startKit();
});
afterAll(() => kit.close());

it('login with …/api/reseller/v1/ saves the origin and says why; commands take it too', async () => {
  const r = await loginWithStdin(kit.home, `${kit.sb.baseUrl}/api/reseller/v1/`, 'docs', kit.sb.apiKey);
  expect(r.exitCode, String(r.stderr)).toBe(0);
  expect(String(r.stderr)).toContain(`base URL ${kit.sb.baseUrl}: proxyctl adds /api/reseller/v1 to it itself`);
  const profiles = await kit.run(['profiles', 'list', '--json'], { env: { PROXYCTL_API_KEY: undefined, PROXYCTL_BASE_URL: undefined } });
  const docs = (JSON.parse(String(profiles.stdout)) as { name: string; baseUrl: string }[]).find((p) => p.name === 'docs');
  expect(docs?.baseUrl).toBe(kit.sb.baseUrl);
  const listed = await kit.run(['units', 'list', '--json'], { env: { PROXYCTL_BASE_URL: `${kit.sb.baseUrl}/api/reseller/v1` } });
  expect([listed.exitCode, String(listed.stdout)], String(listed.stderr)).toEqual([0, '[]']);
  const flag = await kit.run(['account', '--json', '--base-url', `${kit.sb.baseUrl}/api/reseller/v1`]);
  expect(flag.exitCode, String(flag.stderr)).toBe(0);
});
