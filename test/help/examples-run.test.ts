// Every example in every command's help runs as written. The examples are read from the built
// binary's own `--help` (the root and every command of the tree), and each runs through bash (they
// use pipes, redirections and `$(…)`, with `pipefail`) against a fresh sandbox, as a user who
// followed the README's sandbox set-up would: PROXYCTL_BASE_URL and PROXYCTL_API_KEY exported,
// profiles work, sandbox and old-account saved, a webhook set, and the units the examples name
// (PRX-1, PRX-2, PRX-3, PRX-12, PRX-17, PRX-123) bought in pools that exist. The shell variables
// the examples use ($KEY, $SECRET, $SIG, $BODY, $OLD, $NEW, $BASE_URL) are set as their names
// say, the files they read (body.json, delivery.json, proxies.txt) are in the working directory,
// and `uuidgen` is on PATH (util-linux's is missing on some machines: a stand-in prints a UUID).
// Stdin is not a terminal, as in a script. So an example must succeed (exit 0) without a prompt:
// it has --yes where it would ask, except the few whose point is a terminal (NEEDS_A_TERMINAL),
// which must refuse with exit 2 before any request. Examples that serve until Ctrl-C
// (UNTIL_INTERRUPTED) get SIGINT once they are up and must exit 0 (130 when they pipe into another
// program, which Ctrl-C stops too). An example that continues an earlier step has that step run
// first (AFTER); `profiles migrate` gets an OS keyring of its own (a private Secret Service), and
// `ledger push` a shared ledger of its own (PROXYCTL_LEDGER_URL: a database in a PostgreSQL cluster
// the file starts when an example needs one).
import { execa, type ResultPromise } from 'execa';
import { createHmac } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BIN,
  call,
  cleanEnv,
  commandPaths,
  type Kit,
  NODE,
  proxyctl,
  ran,
  type Postgres,
  postgresMissing,
  secretServiceMissing,
  startKit,
  startPostgres,
  startSecretService,
  tempHome,
} from '../helpers/index.js';

const SLOW = 600_000;

/** Examples whose point is the terminal: without one they must refuse (exit 2) before any request. */
const NEEDS_A_TERMINAL = new Set([
  'proxyctl login', // prompts for the base URL and the hidden key
  'proxyctl login --profile work --base-url https://api.example.com', // prompts for the hidden key
  'proxyctl units release PRX-123', // asks first; the next example shows --yes
]);

/** Examples that serve until Ctrl-C: they must come up, and exit 0 on SIGINT. */
const UNTIL_INTERRUPTED = /^proxyctl (webhook listen|webhook log .*--follow|sandbox(?! (state|advance|trigger)\b))/;

/** Steps an example continues: run (and required to succeed) before it, in the same world. */
const AFTER: [RegExp, string][] = [
  [/^proxyctl webhook enable\b/, 'proxyctl webhook disable'], // enable sets again what disable turned off
  [/^proxyctl config get check-target/, 'proxyctl config set check-target https://example.com/'],
];

/** The units the examples name, bought in this order (refs follow the sandbox's sequence). */
const FLEET: { ref: number; poolId: string; protocol: string; description?: string }[] = [
  { ref: 1, poolId: 'US-12', protocol: 'socks5', description: 'customer=acme' },
  { ref: 2, poolId: 'US-12', protocol: 'http', description: 'customer=acme batch 7' },
  // No-auth (inject), for `units modify PRX-3 --allow-ip …`; it admits 127.0.0.1, so `units check` reaches it from here.
  { ref: 3, poolId: 'US-11', protocol: 'http_noauth', description: 'batch 7' },
  { ref: 12, poolId: 'US-12', protocol: 'http' },
  { ref: 17, poolId: 'DE-11', protocol: 'socks5' },
  { ref: 123, poolId: 'US-11', protocol: 'socks5' },
];

const SECRET = 'whsec_example_secret';
const BODY = JSON.stringify({ id: 'evt_1', event: 'unit.created', data: { proxyRef: 'PRX-1' } });
const SIG = `sha256=${createHmac('sha256', SECRET).update(BODY).digest('hex')}`;

const scratch = mkdtempSync(join(tmpdir(), 'proxyctl-examples-'));
const shim = join(scratch, 'bin');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** `proxyctl` on PATH, as an installed package puts it: the built binary. */
beforeAll(() => {
  mkdirSync(shim);
  writeFileSync(join(shim, 'proxyctl'), `#!/bin/sh\nexec ${JSON.stringify(NODE)} ${JSON.stringify(BIN)} "$@"\n`);
  chmodSync(join(shim, 'proxyctl'), 0o755);
  writeFileSync(join(shim, 'uuidgen'), `#!/bin/sh\nexec ${JSON.stringify(NODE)} -p 'crypto.randomUUID()'\n`);
  chmodSync(join(shim, 'uuidgen'), 0o755);
});

/** The `$ …` lines under "Examples:" of one help text. */
function examplesIn(help: string): string[] {
  const at = help.indexOf('\nExamples:\n');
  if (at < 0) return [];
  const lines = help.slice(at + '\nExamples:\n'.length).split('\n');
  const out: string[] = [];
  for (const l of lines) {
    const m = /^ {2}\$ (.*)$/.exec(l);
    if (!m) break;
    out.push(m[1]!);
  }
  return out;
}

/** Every example of every command's help, read from the binary, each once. */
async function collectExamples(): Promise<string[]> {
  const home = tempHome();
  try {
    const all = [[], ...commandPaths()];
    const found = new Set<string>();
    for (let i = 0; i < all.length; i += 4) {
      const helps = await Promise.all(all.slice(i, i + 4).map((p) => ran(proxyctl([...p, '--help'], { home }))));
      for (const h of helps) for (const e of examplesIn(h.out)) found.add(e);
    }
    return [...found];
  } finally {
    home.cleanup();
  }
}

interface World {
  kit: Kit;
  dir: string;
  env: Record<string, string | undefined>;
  close(): Promise<void>;
}

/** A fresh sandbox, home and working directory, set up as the examples assume. */
async function world(): Promise<World> {
  const kit = await startKit({ balance: 100_000, rateLimit: 10_000 });
  const w = kit.sb.world;
  // Nothing listens there: the purchases' deliveries fail, so `webhook log` has some to show.
  const hook = await call(kit.sb, 'PATCH', '/webhook', { body: { url: 'http://127.0.0.1:9/hooks' } });
  if (hook.status !== 200) throw new Error(`setting the webhook: ${hook.status} ${hook.text}`);
  for (const u of FLEET) {
    w.state.nextUnitSeq = u.ref;
    const allowedIps = u.protocol === 'http_noauth' ? { allowedIps: ['127.0.0.1'] } : {};
    const r = await call(kit.sb, 'POST', '/units', { body: { poolId: u.poolId, period: '7d', protocol: u.protocol, ...allowedIps } });
    if (r.status !== 201 || r.body.proxyRef !== `PRX-${u.ref}`) throw new Error(`seeding PRX-${u.ref}: ${r.status} ${r.text}`);
    if (u.description) {
      const d = await call(kit.sb, 'PATCH', `/units/PRX-${u.ref}`, { body: { description: u.description } });
      if (d.status !== 200) throw new Error(`describing PRX-${u.ref}: ${d.status} ${d.text}`);
    }
  }

  const home = kit.home;
  mkdirSync(home.configDir, { recursive: true, mode: 0o700 });
  const profile = { baseUrl: kit.sb.baseUrl, apiKey: kit.sb.apiKey };
  writeFileSync(
    join(home.configDir, 'config.json'),
    JSON.stringify({ profiles: { default: profile, work: profile, sandbox: profile, 'old-account': profile }, currentProfile: 'default' }),
    { mode: 0o600 },
  );
  // Where the completion examples write (the README's install lines make these first).
  for (const d of ['.local/share/bash-completion/completions', '.zsh/completions', '.config/fish/completions'])
    mkdirSync(join(home.dir, d), { recursive: true });

  const dir = join(home.dir, 'work');
  mkdirSync(dir);
  writeFileSync(join(dir, 'body.json'), JSON.stringify({ poolId: 'US-12', period: '7d' }));
  writeFileSync(join(dir, 'delivery.json'), BODY);
  const units = await kit.api<{ data: { ip: string; port: number; credentials: { username: string; password: string } | null }[] }>(
    '/units',
  );
  writeFileSync(
    join(dir, 'proxies.txt'),
    units.data
      .map((u) => (u.credentials ? `${u.ip}:${u.port}:${u.credentials.username}:${u.credentials.password}` : `${u.ip}:${u.port}`))
      .join('\n'),
  );

  const env = cleanEnv({
    ...home.env,
    PATH: `${shim}:${process.env.PATH}`,
    PROXYCTL_BASE_URL: kit.sb.baseUrl,
    PROXYCTL_API_KEY: kit.sb.apiKey,
    BASE_URL: kit.sb.baseUrl,
    KEY: kit.sb.apiKey,
    SECRET,
    SIG,
    BODY,
    OLD: 'whsec_the_previous_secret',
    NEW: SECRET,
  });
  return { kit, dir, env, close: () => kit.close() };
}

function shell(line: string, w: World): ResultPromise {
  return execa('bash', ['-o', 'pipefail', '-c', line], {
    cwd: w.dir,
    env: w.env,
    extendEnv: true,
    input: '',
    reject: false,
    timeout: 120_000,
    detached: true,
    all: true,
  }) as ResultPromise;
}

type Outcome = { line: string; problem: string | undefined };

/** Examples that act on a team's shared ledger: they get a database of their own. */
const NEEDS_A_SHARED_LEDGER = /^proxyctl ledger push/;
let cluster: Promise<Postgres> | undefined;
let databases = 0;
afterAll(async () => {
  await (await cluster)?.close();
});

async function runOne(line: string): Promise<Outcome> {
  const w = await world();
  const migrate = /^proxyctl profiles migrate/.test(line);
  // Where this machine has no Secret Service to start, migrate must say so (exit 3) and move nothing.
  const keyring = migrate && !secretServiceMissing() ? await startSecretService() : undefined;
  if (migrate) Object.assign(w.env, keyring?.env ?? {}, { PROXYCTL_INSECURE_STORAGE: undefined });
  const shared = NEEDS_A_SHARED_LEDGER.test(line);
  // Where this machine has no PostgreSQL to start, they must refuse (exit 2) naming what is missing.
  if (shared && !postgresMissing()) {
    cluster ??= startPostgres();
    w.env.PROXYCTL_LEDGER_URL = await (await cluster).createDatabase(`example_${process.pid}_${++databases}`);
  }
  try {
    for (const [when, step] of AFTER) {
      if (!when.test(line)) continue;
      const before = await shell(step, w);
      if (before.exitCode !== 0) return { line, problem: `the step before it, ${step}: exit ${before.exitCode}\n${before.all}` };
    }
    const requestsBefore = w.kit.sb.requestLog().length;
    if (UNTIL_INTERRUPTED.test(line)) return { line, problem: await interrupted(line, w) };
    const r = await shell(line, w);
    if (NEEDS_A_TERMINAL.has(line)) {
      if (r.exitCode !== 2) return { line, problem: `needs a terminal: expected exit 2, got ${r.exitCode}\n${r.all}` };
      if (w.kit.sb.requestLog().length !== requestsBefore) return { line, problem: 'refused, but after a request' };
      return { line, problem: undefined };
    }
    if (migrate && !keyring)
      return {
        line,
        problem: r.exitCode === 3 && String(r.all).includes('keyring_unavailable') ? undefined : `exit ${r.exitCode}\n${r.all}`,
      };
    if (shared && w.env.PROXYCTL_LEDGER_URL === undefined)
      return {
        line,
        problem: r.exitCode === 2 && String(r.all).includes('no shared ledger is set') ? undefined : `exit ${r.exitCode}\n${r.all}`,
      };
    if (keyring && r.exitCode === 0 && (await keyring.entries()).length !== 4)
      return { line, problem: `keys not in the keyring\n${r.all}` };
    return { line, problem: r.exitCode === 0 ? undefined : `exit ${r.exitCode}\n${r.all}` };
  } finally {
    await keyring?.stop();
    await w.close();
  }
}

/** Starts a server example, waits until it is up (it said something, or asked the sandbox something), then Ctrl-C. */
async function interrupted(line: string, w: World): Promise<string | undefined> {
  // `webhook listen` and `sandbox` take a fixed port by default; one taken here (a sandbox the
  // developer runs, as the README suggests, or another test run's example) must be refused with
  // exit 2 naming it. Judged on what happened, not on a look beforehand: the port may be taken or
  // freed in between.
  const fixed =
    /--port (\d+)/.exec(line)?.[1] ??
    (/^proxyctl webhook listen/.test(line) ? '8484' : /^proxyctl sandbox/.test(line) ? '8787' : undefined);
  const p = shell(line, w);
  const asked = w.kit.sb.requestLog().length;
  let said = false;
  p.all?.once('data', () => {
    said = true;
  });
  let ended = false;
  void p.finally(() => {
    ended = true;
  });
  for (let i = 0; i < 600 && !said && !ended && w.kit.sb.requestLog().length === asked; i++) await new Promise((r) => setTimeout(r, 50));
  if (!ended && p.pid) process.kill(-p.pid, said || w.kit.sb.requestLog().length > asked ? 'SIGINT' : 'SIGKILL');
  const r = await p;
  const pipes = /\| (?!proxyctl)/.test(line);
  if (r.exitCode === 0 || (pipes && (r.exitCode === 130 || r.signal === 'SIGINT'))) return undefined;
  if (fixed !== undefined && fixed !== '0' && ended && r.exitCode === 2 && String(r.all).includes(`port ${fixed} is already in use`))
    return undefined;
  return `${ended ? 'ended before Ctrl-C' : 'after Ctrl-C'}: exit ${r.exitCode ?? r.signal}\n${r.all}`;
}

describe('every example in --help', () => {
  let examples: string[];
  beforeAll(async () => {
    examples = await collectExamples();
  }, SLOW);

  it('is found: the root and every leaf command show some', () => {
    expect(examples.length).toBeGreaterThan(100);
    for (const e of examples) expect(e).toMatch(/^(printf .* \| )?proxyctl /);
    for (const t of NEEDS_A_TERMINAL) expect(examples).toContain(t);
  });

  it(
    'runs as written against a fresh sandbox (exit 0; the terminal ones exit 2 before any request; servers exit 0 on Ctrl-C)',
    async () => {
      const outcomes: Outcome[] = [];
      const quick = examples.filter((e) => !UNTIL_INTERRUPTED.test(e));
      // A few at a time: each is a sandbox and one or more processes of the binary.
      for (let i = 0; i < quick.length; i += 3) outcomes.push(...(await Promise.all(quick.slice(i, i + 3).map(runOne))));
      // Servers one at a time: some take a fixed port.
      for (const e of examples.filter((x) => UNTIL_INTERRUPTED.test(x))) outcomes.push(await runOne(e));
      const failed = outcomes.filter((o) => o.problem !== undefined).map((o) => `$ ${o.line}\n${o.problem}`);
      expect(failed.join('\n\n')).toBe('');
    },
    SLOW,
  );
});
