#!/usr/bin/env node
// `npm run demo`: a short scripted reseller session against a local sandbox, with the real
// binary: account, pools, buy, list, connection strings, a check through every unit (the sandbox's
// units are real proxies on loopback), a unit taken down and checked again (one failure, exit 10),
// a webhook to a local receiver (its signature checked here), the delivery log. Everything runs on 127.0.0.1 and is torn down.
import { spawnSync } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, spawnSandbox } from './lib/spawn-sandbox.mjs';

const configDir = mkdtempSync(join(tmpdir(), 'proxyctl-demo-'));
const bold = (s) => (process.stdout.isTTY ? `\u001b[1m${s}\u001b[22m` : s);

// 1. A local webhook receiver that records what arrives.
const received = [];
const receiver = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    received.push({ headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') });
    res.writeHead(200).end();
  });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const hookUrl = `http://127.0.0.1:${receiver.address().port}/hooks/proxy`;

// 2. The sandbox, on a free port; its first stdout line says where and with which key.
const { child: sandbox, info } = await spawnSandbox();
// No `export` line to copy: this sandbox is stopped when the demo ends (`proxyctl sandbox` keeps one running).
console.log(bold(`Sandbox running at ${info.baseUrl} (stopped when the demo ends)\n`));

const env = {
  ...process.env,
  PROXYCTL_BASE_URL: info.baseUrl,
  PROXYCTL_API_KEY: info.apiKey,
  PROXYCTL_CONFIG_DIR: configDir,
  NO_COLOR: '1',
  CI: '1',
};
delete env.PROXYCTL_PROFILE;

function step(args, { capture = false, exit = 0 } = {}) {
  console.log(bold(`$ proxyctl ${args.join(' ')}`));
  const r = spawnSync(process.execPath, [BIN, ...args], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'],
  });
  if (capture) process.stdout.write(r.stdout);
  console.log();
  if (exit !== 0) console.log(`(exit ${r.status})\n`);
  if (r.status !== exit) throw new Error(`proxyctl ${args.join(' ')} exited with ${r.status}`);
  return r.stdout;
}

async function waitFor(cond, ms = 5000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

let failed = false;
try {
  step(['me']);
  step(['pools', '--country', 'US']);
  const unit = JSON.parse(step(['units', 'create', '--pool', 'US-11', '--period', '7d', '--json'], { capture: true }));
  step(['units', 'create', '--pool', 'GB-11', '--period', '24h', '--protocol', 'http']);
  step(['units', 'list']);
  step(['units', 'list', '-o', 'conn']);
  // Each unit carries a request to the sandbox's echo, which says what address it came from.
  step(['units', 'check', '--all']);
  step(['sandbox', 'trigger', 'unit.down', '--unit', unit.proxyRef]);
  step(['units', 'check', '--all'], { exit: 10 });
  const hook = JSON.parse(step(['webhook', 'set', hookUrl, '--json'], { capture: true }));
  step(['units', 'extend', unit.proxyRef, '--period', '24h']);
  if (await waitFor(() => received.length > 0)) {
    const d = received[0];
    const expected = Buffer.from(`sha256=${createHmac('sha256', hook.secret).update(d.raw).digest('hex')}`);
    const got = Buffer.from(String(d.headers['x-service-signature']));
    const valid = got.length === expected.length && timingSafeEqual(got, expected);
    console.log(bold(`The receiver got ${d.headers['x-service-event']} (signature ${valid ? 'valid' : 'INVALID'}):`));
    console.log(`${d.raw}\n`);
    if (!valid) failed = true;
  } else {
    console.log('No webhook delivery arrived within 5 seconds.');
    failed = true;
  }
  step(['webhook', 'log']);
} catch (e) {
  failed = true;
  console.error(`demo stopped: ${e.message}`);
} finally {
  sandbox.kill('SIGTERM');
  await new Promise((r) => sandbox.once('exit', r));
  receiver.close();
  rmSync(configDir, { recursive: true, force: true });
}
console.log(failed ? 'Demo finished with errors.' : bold('Demo finished: sandbox stopped, temporary config removed.'));
process.exitCode = failed ? 1 : 0;
