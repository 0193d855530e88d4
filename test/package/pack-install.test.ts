// The package as npm users get it (slow, end to end): `npm pack` from a clean copy builds dist/ in
// its `prepare` and ships only bin, dist, completions, README.md and LICENSE; the tarball installs
// globally into a fresh prefix and runs; installed as a dependency, `import … from 'proxyctl'` gives
// the typed SDK, whose example script buys against the sandbox exactly once.
import { execa } from 'execa';
import { cpSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cents,
  cleanEnv,
  installGlobally,
  installInProject,
  type Kit,
  NODE,
  type Packed,
  packClean,
  pickPools,
  REPO,
  startKit,
  tempHome,
} from '../helpers/index.js';

const SLOW = 240_000;
const version = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version as string;

let packed: Packed;
let prefix: string;
let app: string;

beforeAll(async () => {
  packed = await packClean();
  [prefix, app] = await Promise.all([installGlobally(packed), installInProject(packed)]);
}, SLOW);
afterAll(() => packed?.cleanup());

describe('npm pack', () => {
  it(
    'ships only bin, dist, completions, README.md and LICENSE (and package.json)',
    () => {
      const top = new Set(packed.files.map((f) => f.split('/')[0]));
      for (const t of top) expect(['bin', 'dist', 'completions', 'README.md', 'LICENSE', 'package.json']).toContain(t);
      expect(packed.files).toEqual(
        expect.arrayContaining([
          'LICENSE',
          'README.md',
          'package.json',
          'bin/proxyctl.js',
          'bin/package.json',
          'dist/cli.cjs',
          'dist/sdk.js',
          'dist/types/sdk.d.ts',
        ]),
      );
      expect(packed.files.some((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toBe(false);
      expect(readFileSync(join(REPO, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) 2026 proxyctl authors\n/);
    },
    SLOW,
  );
});

describe('installed globally into a fresh prefix', () => {
  it(
    'runs: --version, --help, and a command against the sandbox',
    async () => {
      const bin = join(prefix, 'bin', 'proxyctl');
      const env = cleanEnv({ PATH: `${join(prefix, 'bin')}:${process.env.PATH}` });
      const v = await execa(bin, ['--version'], { env, extendEnv: true, reject: false });
      expect(v.exitCode).toBe(0);
      expect(v.stdout).toBe(version);
      const help = await execa(bin, ['--help'], { env, extendEnv: true, reject: false });
      expect(help.exitCode).toBe(0);
      expect(help.stdout).toContain('units');

      const kit = await startKit();
      const home = tempHome();
      try {
        const me = await execa(bin, ['account', '--json'], {
          env: cleanEnv({ ...home.env, PATH: env.PATH, PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey }),
          extendEnv: true,
          reject: false,
        });
        expect(me.stderr).toBe('');
        expect(me.exitCode).toBe(0);
        expect(JSON.parse(me.stdout).balanceUsd).toBe((await kit.state()).balanceUsd);
      } finally {
        home.cleanup();
        await kit.close();
      }
    },
    SLOW,
  );
});

describe("the SDK, installed as a dependency (import … from 'proxyctl')", () => {
  let kit: Kit;
  beforeAll(async () => {
    kit = await startKit();
  });
  afterAll(() => kit?.close());

  const example = (args: string[]) => inApp([join(app, 'create-units.mjs'), ...args]);
  const inApp = (args: string[]) =>
    execa(NODE, args, {
      cwd: app,
      env: cleanEnv({ PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey }),
      extendEnv: true,
      reject: false,
      timeout: 120_000,
    });

  it('README shows examples/create-units.mjs as it is', () => {
    const script = readFileSync(join(REPO, 'examples/create-units.mjs'), 'utf8');
    expect(readFileSync(join(REPO, 'README.md'), 'utf8')).toContain(`\`\`\`js\n${script}\`\`\``);
  });

  it(
    'the example buys each unit once, debits once, and a retry with the same key pays nothing',
    async () => {
      cpSync(join(REPO, 'examples/create-units.mjs'), join(app, 'create-units.mjs'));
      const [pool] = await pickPools(kit);
      const price = pool!.prices['7d']!;
      const before = await kit.state();
      const key = '2f1c7a52-0b7e-4c1e-9a4f-3d2b1c0e9f8a';

      const first = await example([pool!.poolId, '7d', '3', key]);
      expect(first.stderr).toBe('');
      expect(first.exitCode).toBe(0);
      const out = JSON.parse(first.stdout);
      expect(out.idempotencyKey).toBe(key);
      expect(out.units).toHaveLength(3);
      expect(cents(out.spentUsd)).toBe(cents(3 * price));
      const after = await kit.state();
      expect(after.units.map((u) => u.proxyRef).sort()).toEqual([...before.units.map((u) => u.proxyRef), ...out.units].sort());
      expect(cents(after.balanceUsd)).toBe(cents(before.balanceUsd - 3 * price));

      // A fresh process (no memory of the first): the server's idempotency keys replay the purchases.
      const retry = await example([pool!.poolId, '7d', '3', key]);
      expect(retry.exitCode).toBe(0);
      expect(JSON.parse(retry.stdout)).toEqual({ idempotencyKey: key, units: out.units, spentUsd: 0 });
      const again = await kit.state();
      expect(again.units).toHaveLength(after.units.length);
      expect(again.balanceUsd).toBe(after.balanceUsd);
    },
    SLOW,
  );

  it(
    'lost answers (the purchase committed, the socket dropped) are retried under the same key: each unit bought once',
    async () => {
      const [pool] = await pickPools(kit);
      const price = pool!.prices['7d']!;
      const before = await kit.state();
      await kit.control('/faults', { dropAfterCommit: { op: 'create', count: 2 } });
      const r = await example([pool!.poolId, '7d', '3']);
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out.units).toHaveLength(3);
      expect(cents(out.spentUsd)).toBe(cents(3 * price));
      const after = await kit.state();
      expect(after.units).toHaveLength(before.units.length + 3);
      expect(cents(after.balanceUsd)).toBe(cents(before.balanceUsd - 3 * price));
    },
    SLOW,
  );

  it(
    'extendUnitSafely settles a lost extend answer by reading the unit back: extended once, charged once',
    async () => {
      const [pool] = await pickPools(kit);
      const bought = JSON.parse((await example([pool!.poolId, '7d', '1'])).stdout).units[0] as string;
      const before = await kit.state();
      const unitBefore = before.units.find((u) => u.proxyRef === bought)!;
      await kit.control('/faults', { dropAfterCommit: { op: 'extend', count: 1 } });
      const r = await inApp([
        '--input-type=module',
        '-e',
        `import { extendUnitSafely, ResellerClient } from 'proxyctl';
const client = new ResellerClient({ baseUrl: process.env.PROXYCTL_BASE_URL, apiKey: process.env.PROXYCTL_API_KEY });
console.log(JSON.stringify(await extendUnitSafely(client, { ref: ${JSON.stringify(bought)}, period: '7d' })));`,
      ]);
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
      const after = await kit.state();
      const unitAfter = after.units.find((u) => u.proxyRef === bought)!;
      expect(JSON.parse(r.stdout)).toEqual({ proxyRef: bought, expiresAt: unitAfter.expiresAt, extended: true });
      expect(Date.parse(unitAfter.expiresAt)).toBeGreaterThan(Date.parse(unitBefore.expiresAt));
      expect(cents(after.balanceUsd)).toBe(cents(before.balanceUsd - pool!.prices['7d']!));
    },
    SLOW,
  );

  /** tsc --strict over `files` in the installed app, against the tarball's declarations (and the consumer's own @types/node). */
  const strictTsc = (files: string[]) => {
    const types = join(app, 'node_modules/@types');
    if (!readdirSync(join(app, 'node_modules')).includes('@types')) symlinkSync(join(REPO, 'node_modules/@types'), types, 'dir');
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          strict: true,
          noEmit: true,
          allowJs: true,
          checkJs: true,
          types: ['node'],
        },
        files,
      }),
    );
    return execa(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: app, reject: false });
  };

  it(
    "the README's ts blocks and every file in examples/ type-check under strict (JavaScript with checkJs)",
    async () => {
      const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
      const blocks = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
      // The SDK section has at least the import line and the typed-errors example.
      expect(blocks.length).toBeGreaterThanOrEqual(2);
      const files = blocks.map((code, i) => {
        const name = `readme-${i + 1}.ts`;
        // A module each (top-level await, no clashing names), as a user's file would be.
        writeFileSync(join(app, name), `${code}export {};\n`);
        return name;
      });
      const examples = readdirSync(join(REPO, 'examples'));
      expect(examples).toContain('create-units.mjs');
      for (const f of examples) {
        cpSync(join(REPO, 'examples', f), join(app, `example-${f}`));
        files.push(`example-${f}`);
      }
      const r = await strictTsc(files);
      expect(r.stdout + r.stderr).toBe('');
      expect(r.exitCode).toBe(0);

      // The same check fails on a block that misuses the API, so it is not vacuous.
      writeFileSync(
        join(app, 'readme-wrong.ts'),
        `import { ResellerClient } from 'proxyctl';\nResellerClient.fromEnv({ apiKey: 7 });\nexport {};\n`,
      );
      const wrong = await strictTsc(['readme-wrong.ts']);
      expect(wrong.exitCode).not.toBe(0);
      expect(wrong.stdout).toMatch(/readme-wrong\.ts\(2,.*number.*string/);
    },
    SLOW,
  );

  it(
    'tsc type-checks a TypeScript consumer against the shipped declarations, and refuses a wrong one',
    async () => {
      const check = (source: string) => {
        writeFileSync(join(app, 'consumer.ts'), source);
        return strictTsc(['consumer.ts']);
      };
      const good =
        await check(`import { ApiError, createUnitsSafely, extendUnitSafely, ResellerClient, type CreateUnitsResult, type SdkError, type Unit } from 'proxyctl';
const client = new ResellerClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', timeoutMs: 5000 });
const result: CreateUnitsResult = await createUnitsSafely(client, { poolId: 'US-1', period: '7d', count: 2, idempotencyKey: 'k', description: 'customer=acme' });
const undescribed: string[] = result.undescribed.map((u) => \`\${u.proxyRef}: \${u.reason}\`);
const refs: string[] = result.units.map((u: Unit) => u.proxyRef);
for (const item of result.items) if (!item.ok && item.error instanceof ApiError) console.log(item.error.status);
// A failed item's error is the SDK's error union: code and message without a cast.
const failed: SdkError[] = result.items.flatMap((i) => (i.ok ? [] : [i.error]));
const codes: string[] = failed.map((e) => \`\${e.code}: \${e.message}\`);
const fromEnv: ResellerClient = ResellerClient.fromEnv({ timeoutMs: 1000, env: { PROXYCTL_API_KEY: 'k', PROXYCTL_BASE_URL: 'http://127.0.0.1:1' } });
console.log(codes, fromEnv, undescribed);
const extended: { expiresAt: string; extended: boolean } = await extendUnitSafely(client, { ref: refs[0]!, period: '7d' });
const balance: number = await client.balance();
console.log(extended, balance);
`);
      expect(good.stdout + good.stderr).toBe('');
      expect(good.exitCode).toBe(0);

      const bad = await check(`import { createUnitsSafely, ResellerClient } from 'proxyctl';
const client = new ResellerClient({ baseUrl: 'http://127.0.0.1:1' });
await createUnitsSafely(client, { poolId: 7, period: '7d' });
`);
      expect(bad.exitCode).not.toBe(0);
      expect(bad.stdout).toMatch(/consumer\.ts\(2,.*apiKey/);
      expect(bad.stdout).toMatch(/consumer\.ts\(3,.*number.*string/);
    },
    SLOW,
  );
});
