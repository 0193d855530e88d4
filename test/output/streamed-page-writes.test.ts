// A streamed list is written a page at a time, not a line at a time: one write() call per line
// costs a large share of `units list --all -o conn`'s time (bench/RESULTS.md). The lines must stay
// the same, in the same order, and every page still reaches stdout as it arrives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { seedUnits, startKit, type Kit } from '../helpers/index.js';

const HOOK = pathToFileURL(fileURLToPath(new URL('../fixtures/count-writes.mjs', import.meta.url))).href;
const UNITS = 450; // three pages of 200 (the page size of --all)

let kit: Kit;
beforeAll(async () => {
  kit = await startKit();
  seedUnits(kit, UNITS);
});
afterAll(() => kit.close());

async function run(args: string[]) {
  const count = join(kit.home.dir, `writes-${args.join('_')}.txt`);
  const r = await kit.run(args, { env: { NODE_OPTIONS: `--import=${HOOK}`, COUNT_WRITES: count } });
  return { ...r, writes: Number(readFileSync(count, 'utf8')) };
}

describe('units list --all into a pipe', () => {
  for (const format of ['conn', 'jsonl', 'csv', 'json']) {
    it(`-o ${format}: every unit, in order, in a handful of writes rather than one per unit`, async () => {
      const r = await run(['units', 'list', '--all', '-o', format]);
      expect(r.exitCode).toBe(0);
      const units = (await kit.api<{ data: { proxyRef: string }[] }>('/units?pageSize=200&page=1')).data;
      const text = String(r.stdout);
      if (format === 'json') expect((JSON.parse(text) as unknown[]).length).toBe(UNITS);
      else expect(text.trimEnd().split('\n').length).toBe(format === 'csv' ? UNITS + 1 : UNITS);
      if (format !== 'conn') expect(text.indexOf(units[0]!.proxyRef)).toBeLessThan(text.indexOf(units[199]!.proxyRef));
      // At most a few writes per page (a write at 64 KiB too), where it was one per unit.
      expect(r.writes).toBeLessThanOrEqual(20);
    });
  }
});
