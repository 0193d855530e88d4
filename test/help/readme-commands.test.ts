// The README's commands are real: every `proxyctl …` it shows (in sh blocks and in inline code)
// names commands and flags the tree the binary is built from has; and the scripting lines of
// issue 27 (--jq, the list filters and sort with --utc, buying by country, a credential rotation)
// run as written against the sandbox, with their exact output and the sandbox's state afterwards.
import { execa } from 'execa';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, cents, cleanEnv, commandTree, type Kit, NODE, REPO, seedFleet, startKit } from '../helpers/index.js';

const README = readFileSync(join(REPO, 'README.md'), 'utf8');

const program = commandTree();

/** Words of a shell line as the shell splits them (quotes removed), up to a comment. */
function words(line: string): string[] {
  const out: string[] = [];
  let cur: string | undefined;
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else cur = (cur ?? '') + c;
    } else if (c === "'" || c === '"') {
      quote = c;
      cur ??= '';
    } else if (c === '#' && cur === undefined) break;
    else if (/\s/.test(c)) {
      if (cur !== undefined) out.push(cur);
      cur = undefined;
    } else cur = (cur ?? '') + c;
  }
  if (cur !== undefined) out.push(cur);
  return out;
}

/** Each `proxyctl …` invocation of a line: the words after `proxyctl`, up to a pipe, &&, ;, & or redirection. */
function invocations(line: string): string[][] {
  const ws = words(line);
  const out: string[][] = [];
  for (let i = 0; i < ws.length; i++) {
    if (ws[i] !== 'proxyctl') continue;
    const args: string[] = [];
    for (let j = i + 1; j < ws.length && !/^(\||&&|;|&|>|>>|<|2>|2>>|\|\|)$/.test(ws[j]!); j++) args.push(ws[j]!);
    out.push(args);
  }
  return out;
}

/** What is wrong with one invocation against the command tree: unknown subcommands are arguments, unknown flags are not. */
function problems(args: string[]): string[] {
  const found: string[] = [];
  let cmd = program;
  const chain = [program];
  /** A group that runs a default subcommand (`pools` is `pools list`) takes that one's flags. */
  const intoDefault = () => {
    const name = (cmd as unknown as { _defaultCommandName?: string })._defaultCommandName;
    const sub = name ? cmd.commands.find((c) => c.name() === name) : undefined;
    if (sub) {
      cmd = sub;
      chain.push(sub);
    }
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break; // what follows is passed on (mcp install … -- --allow-write)
    if (a.startsWith('-') && a !== '-') {
      const flag = a.split('=')[0]!;
      if (flag !== '--help' && flag !== '-h' && !chain.some((c) => c.options.some((o) => o.long === flag || o.short === flag)))
        intoDefault();
      const option = chain.flatMap((c) => c.options).find((o) => o.long === flag || o.short === flag);
      if (!option && flag !== '--help' && flag !== '-h')
        found.push(
          `${flag} is not an option of proxyctl ${chain
            .slice(1)
            .map((c) => c.name())
            .join(' ')}`.trimEnd(),
        );
      // Its value is the next word (--sort -expiry, --profile sandbox), unless given with =.
      if (option && (option.required || option.optional) && !a.includes('=')) i++;
      continue;
    }
    const sub = cmd.commands.find((c) => c.name() === a || c.aliases().includes(a));
    if (sub) {
      cmd = sub;
      chain.push(sub);
    } else intoDefault();
  }
  return found;
}

/** The README's proxyctl lines: sh blocks' lines and inline code spans that start with `proxyctl `. */
function readmeInvocations(text: string): { line: string; args: string[] }[] {
  const lines: string[] = [];
  for (const m of text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) lines.push(...m[1]!.split('\n'));
  for (const m of text.matchAll(/`(proxyctl [^`]+)`/g)) lines.push(m[1]!);
  return lines.flatMap((line) => invocations(line).map((args) => ({ line, args })));
}

describe("the README's proxyctl commands", () => {
  it('name only commands and flags that exist', () => {
    const all = readmeInvocations(README);
    expect(all.length).toBeGreaterThan(80);
    const wrong = all.flatMap(({ line, args }) => problems(args).map((p) => `${line.trim()}\n  ${p}`));
    expect(wrong).toEqual([]);
  });

  it('the check finds a flag that does not exist, and a flag of another command', () => {
    const text =
      '```sh\nproxyctl units list --sortby expiry | head\nproxyctl pools --regenerate-password\nproxyctl units get PRX-1 -o conn\nproxyctl --profile work units list --sort -expiry\n```\n';
    expect(readmeInvocations(text).flatMap(({ args }) => problems(args))).toEqual([
      '--sortby is not an option of proxyctl units list',
      '--regenerate-password is not an option of proxyctl pools list',
    ]);
  });
});

/** The README line, as it is in the README, run through bash against the kit. */
async function runReadmeLine(kit: Kit, line: string) {
  // The line as the README has it: alone, or followed only by a comment.
  expect(README.split('\n').some((l) => l === line || (l.startsWith(`${line} `) && /^\s+#/.test(l.slice(line.length))))).toBe(true);
  const r = await execa('bash', ['-o', 'pipefail', '-c', line.replace(/^proxyctl /, `${JSON.stringify(NODE)} ${JSON.stringify(BIN)} `)], {
    env: cleanEnv({ ...kit.home.env, PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey }),
    extendEnv: true,
    reject: false,
    input: '',
  });
  return r;
}

describe("issue 27's scripting lines in the README, run as written", () => {
  let kit: Kit;
  beforeEach(async () => {
    kit = await startKit();
  });
  afterEach(() => kit.close());

  it("proxyctl units list --jq '.[].proxyRef': one ref a line", async () => {
    const refs = seedFleet(kit, [{ hoursLeft: 5 }, { hoursLeft: 50 }, { hoursLeft: 500 }]);
    const r = await runReadmeLine(kit, "proxyctl units list --jq '.[].proxyRef'");
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(refs.join('\n'));
  });

  it('proxyctl units list --sort -expiry --country US --protocol socks5 --provider verizon --utc', async () => {
    // Verizon's US pools are US-11, US-14 and US-17; US-12 is T-Mobile.
    const [a, b, , , , f] = seedFleet(kit, [
      { poolId: 'US-11', hoursLeft: 10 },
      { poolId: 'US-14', hoursLeft: 50 },
      { poolId: 'US-12', hoursLeft: 30 }, // another provider
      { poolId: 'US-17', hoursLeft: 20, protocol: 'http' }, // another protocol
      { poolId: 'DE-11', hoursLeft: 40 }, // another country
      { poolId: 'US-17', hoursLeft: 100 },
    ]);
    const r = await runReadmeLine(kit, 'proxyctl units list --sort -expiry --country US --protocol socks5 --provider verizon --utc');
    expect(r.exitCode).toBe(0);
    const rows = r.stdout.split('\n').map((l) => l.split('\t'));
    // Piped: tab-separated rows (ref, pool, protocol, …), the latest expiry first.
    expect(rows.map((c) => c.slice(0, 3))).toEqual([
      [f, 'US-17', 'socks5'],
      [b, 'US-14', 'socks5'],
      [a, 'US-11', 'socks5'],
    ]);
  });

  it('proxyctl units create --country US --period 7d: the cheapest available US pool (ties: the lowest id), charged once', async () => {
    const before = await kit.state();
    const r = await runReadmeLine(kit, 'proxyctl units create --country US --period 7d');
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('buying from US-11, the cheapest of');
    const after = await kit.state();
    expect(after.units).toHaveLength(before.units.length + 1);
    const unit = after.units.at(-1)!;
    expect(unit).toMatchObject({ poolId: 'US-11', period: '7d' });
    expect(r.stdout.split('\n')[0]).toContain(unit.proxyRef);
    expect(cents(before.balanceUsd - after.balanceUsd)).toBe(cents(unit.pricePaid));
  });

  it('proxyctl units modify --tagged acme --regenerate-password -o conn: new passwords, printed once as connection lines', async () => {
    const [g, h, , other] = seedFleet(kit, [
      { poolId: 'US-12', hoursLeft: 100, description: 'customer=acme' },
      { poolId: 'US-12', hoursLeft: 100, protocol: 'http', description: 'scraper customer=acme' },
      { poolId: 'US-11', hoursLeft: 100, protocol: 'http_noauth', description: 'customer=acme' }, // no password: left out
      { poolId: 'US-12', hoursLeft: 100, description: 'customer=globex' },
    ]);
    const before = await kit.state();
    const r = await runReadmeLine(kit, 'proxyctl units modify --tagged acme --regenerate-password -o conn');
    expect(r.exitCode).toBe(0);
    const after = await kit.state();
    const unit = (ref: string) => after.units.find((u) => u.proxyRef === ref)!;
    const old = (ref: string) => before.units.find((u) => u.proxyRef === ref)!;
    expect(r.stdout.split('\n')).toEqual(
      [g!, h!].map((ref) => {
        const u = unit(ref);
        return `${u.ip}:${u.port}:${u.credentials!.username}:${u.credentials!.password}`;
      }),
    );
    for (const ref of [g!, h!]) {
      expect(unit(ref).credentials!.password).not.toBe(old(ref).credentials!.password);
      expect(unit(ref).credentials!.password).toMatch(/^[A-Za-z0-9]{24}$/);
      expect(unit(ref).credentials!.username).toBe(old(ref).credentials!.username);
    }
    expect(unit(other!).credentials).toEqual(old(other!).credentials);
  });
});
