// A key typed as an option proxyctl does not have (`--api-key=…`, on any command or none) is a
// usage error that never prints the key back: commander names unknown options, value and all.
import { afterAll, expect, it } from 'vitest';
import { proxyctl, tempHome } from '../helpers/index.js';

const home = tempHome();
afterAll(() => home.cleanup());
const KEY = 'sk_live_DO_NOT_ECHO_4f1c';

it.each([[[`--api-key=${KEY}`, 'units', 'list']], [['units', 'list', `--api-key=${KEY}`]], [['account', `--token=${KEY}`]]])(
  '%j: exit 2, the key nowhere in the output',
  async (argv) => {
    const r = await proxyctl(argv, { home });
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain('unknown option');
    expect(String(r.stderr) + String(r.stdout)).not.toContain(KEY);
  },
);
