#!/usr/bin/env node
// `npm run bench`: runs every benchmark in turn (add new ones to the list).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const benches = ['sandbox.mjs', 'startup.mjs'];
let failed = 0;
for (const b of benches) {
  const r = spawnSync(process.execPath, [fileURLToPath(new URL(b, import.meta.url)), ...process.argv.slice(2)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;
