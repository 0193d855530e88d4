// `units list --description-contains TEXT`: a customer tag kept in `description` selects that
// customer's units. Matched on the client after each page arrives, in any case; --limit counts
// matches, and the output streams like any list.
import { afterEach, expect, it } from 'vitest';
import { type Kit, seedFleet, startKit } from '../helpers/index.js';

let kit: Kit | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

async function tagged() {
  kit = await startKit({ balance: 100 });
  // Matches spread over the pages: with --limit 2 the list is read 2 units a page.
  const refs = seedFleet(
    kit,
    ['globex', 'other', 'cust:ACME', 'globex', 'x', 'acme-2', 'Acme Corp', 'none'].map((description) => ({ hoursLeft: 10, description })),
  );
  return { kit, refs };
}

const refsOf = (stdout: unknown) => (JSON.parse(String(stdout)) as { proxyRef: string }[]).map((u) => u.proxyRef);

it('selects the units whose description contains the text, in any case', async () => {
  const { kit, refs } = await tagged();
  const r = await kit.run(['units', 'list', '--description-contains', 'acme', '--json']);
  expect(r.exitCode).toBe(0);
  expect(refsOf(r.stdout)).toEqual([refs[2], refs[5], refs[6]]);
  const conn = await kit.run(['units', 'list', '--description-contains', 'ACME', '--conn-format', '{ref}']);
  expect(String(conn.stdout)).toBe([refs[2], refs[5], refs[6]].join('\n'));
});

it('--limit counts matches, reading pages until it has them', async () => {
  const { kit, refs } = await tagged();
  const r = await kit.run(['units', 'list', '--description-contains', 'acme', '--limit', '2', '--json']);
  expect(r.exitCode).toBe(0);
  expect(refsOf(r.stdout)).toEqual([refs[2], refs[5]]);
  const lines = await kit.run(['units', 'list', '--description-contains', 'Acme', '--limit', '1', '-o', 'jsonl']);
  expect(
    String(lines.stdout)
      .split('\n')
      .map((l) => JSON.parse(l).proxyRef),
  ).toEqual([refs[2]]);
});

it('one page (--page-size) is filtered too; no match says "No units found."', async () => {
  const { kit, refs } = await tagged();
  const page = await kit.run(['units', 'list', '--description-contains', 'acme', '--page-size', '4', '--json']);
  expect(refsOf(page.stdout)).toEqual([refs[2]]);
  const none = await kit.run(['units', 'list', '--description-contains', 'initech']);
  expect(none.exitCode).toBe(0);
  expect(String(none.stdout)).toBe('');
  expect(none.stderr).toContain('No units found.');
});
