// TAB on a unit ref offers every unit the account's commands have seen, not the newest 1,000: at
// 10,000 units `PRX-12<TAB>` offers all 111 refs that start so (PRX-12, PRX-120…129, PRX-1200…1299).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedUnits, startKit, type Kit } from '../helpers/index.js';

let kit: Kit;
beforeAll(async () => {
  kit = await startKit({ rateLimit: 10_000 });
  seedUnits(kit, 10_000);
});
afterAll(() => kit.close());

it('after units list, PRX-12<TAB> offers the 111 refs that exist, and the last unit too', { timeout: 120_000 }, async () => {
  const listed = await kit.run(['units', 'list', '-o', 'jsonl']);
  expect(listed.exitCode, String(listed.stderr)).toBe(0);
  expect(String(listed.stdout).trim().split('\n')).toHaveLength(10_000);
  const complete = async (...words: string[]) => {
    const r = await kit.run(['__complete', ...words]);
    expect([r.exitCode, String(r.stderr)]).toEqual([0, '']);
    return String(r.stdout)
      .split('\n')
      .filter((l) => l && !l.startsWith(':'))
      .map((l) => l.split('\t')[0]);
  };
  const offered = await complete('units', 'get', 'PRX-12');
  const expected = [
    'PRX-12',
    ...Array.from({ length: 10 }, (_, i) => `PRX-12${i}`),
    ...Array.from({ length: 100 }, (_, i) => `PRX-12${String(i).padStart(2, '0')}`),
  ];
  expect(offered.sort()).toEqual(expected.sort());
  expect(await complete('units', 'extend', 'PRX-1000')).toEqual(expect.arrayContaining(['PRX-1000', 'PRX-10000']));
  expect(await complete('units', 'swap', 'PRX-9999')).toEqual(['PRX-9999']);
});
