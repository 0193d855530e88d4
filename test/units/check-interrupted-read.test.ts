// Ctrl-C while `units check REF` is still reading the unit from the API: the run is interrupted, not
// that row failed. No row is printed, the summary says it was not started, exit 130 (it used to be a
// failed row, "api_error: interrupted", and "0 ok, 1 failed"). A scripted API that never answers.
import { afterAll, expect, it } from 'vitest';
import { outputUntil, proxyctl, startScriptedServer, tempHome } from '../helpers/index.js';

const home = tempHome();
afterAll(() => home.cleanup());

it('SIGINT while reading the unit: not started, exit 130', async () => {
  const api = await startScriptedServer(() => undefined);
  try {
    const child = proxyctl(['units', 'check', 'PRX-1', '--target', 'http://127.0.0.1:9/', '--json', '--debug'], {
      home,
      env: { PROXYCTL_BASE_URL: api.url, PROXYCTL_API_KEY: 'rk_test_check_interrupted' },
    });
    await outputUntil(child, 'stderr', (t) => /GET \S+\/units\/PRX-1/.test(t));
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode, String(r.stderr)).toBe(130);
    expect(JSON.parse(String(r.stdout))).toEqual([]);
    expect(String(r.stderr)).toMatch(/^0 ok, 0 failed, 1 not started \(interrupted\)/m);
  } finally {
    await api.close();
  }
});
