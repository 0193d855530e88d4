// Colour on stderr for error lines and warnings, decided by shouldColor (FORCE_COLOR / NO_COLOR /
// TTY) and drawn by the output layer: red "error:", dim details, yellow "warning:"; none without.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pickPools, startKit, type Kit } from '../helpers/index.js';

let kit: Kit;
beforeAll(async () => {
  kit = await startKit({ balance: 500 });
});
afterAll(() => kit.close());

it('an error line: red "error:" and dim details with FORCE_COLOR, plain with NO_COLOR', async () => {
  const coloured = await kit.run(['units', 'get', 'a b'], { env: { FORCE_COLOR: '1' } });
  expect(coloured.exitCode).toBe(2);
  expect(String(coloured.stderr)).toBe(
    '\u001b[31merror:\u001b[39m invalid unit reference "a b" (expected e.g. PRX-123) \u001b[2m(code usage_error)\u001b[22m',
  );
  const plain = await kit.run(['units', 'get', 'a b'], { env: { NO_COLOR: '1' } });
  expect(String(plain.stderr)).toBe('error: invalid unit reference "a b" (expected e.g. PRX-123) (code usage_error)');
});

it('a warning: yellow "warning:" with FORCE_COLOR, plain with NO_COLOR', async () => {
  const pool = (await pickPools(kit))[0]!.poolId;
  const bought = await kit.run(['units', 'create', '--pool', pool, '--period', '3h', '--json']);
  expect(bought.exitCode).toBe(0);
  const ref = (JSON.parse(String(bought.stdout)) as { proxyRef: string }).proxyRef;
  const text = `${ref} was named more than once; it is extended once`;
  const coloured = await kit.run(['units', 'extend', ref, ref, '--period', '3h', '--dry-run', '--json'], { env: { FORCE_COLOR: '1' } });
  expect(coloured.exitCode).toBe(0);
  expect(String(coloured.stderr)).toContain(`\u001b[33mwarning:\u001b[39m ${text}`);
  const plain = await kit.run(['units', 'extend', ref, ref, '--period', '3h', '--dry-run', '--json'], { env: { NO_COLOR: '1' } });
  expect(String(plain.stderr)).toContain(`warning: ${text}`);
  expect(String(plain.stderr)).not.toContain('\u001b');
});
