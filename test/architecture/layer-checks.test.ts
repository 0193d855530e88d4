// The layer rules of docs/architecture.md are checks, not advice: `npm run lint:deps` (part of
// `npm test`) fails on an upward import, a loop across folders, a sandbox that reaches out, or
// `process` outside src/cli.ts. Each case runs the real tools on a copy of src/ with one bad edit.
import { afterEach, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const DEPCRUISE = join(REPO, 'node_modules/.bin/depcruise');
const CONFIG = join(REPO, '.dependency-cruiser.cjs');
const BIOME = join(REPO, 'node_modules/.bin/biome');

/** The project's Biome rules on a copy of src/ (the rule that keeps `process` in src/cli.ts among them). */
const lintProcess = (root: string) => {
  cpSync(join(REPO, 'biome.json'), join(root, 'biome.json'));
  return execa(BIOME, ['lint', '--vcs-enabled=false', '--max-diagnostics=50', 'src'], { cwd: root, reject: false });
};

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A copy of the real src/ in a temporary directory, with `edits` applied (path → text to add). */
function copyOfSrc(edits: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'proxyctl-layers-'));
  dirs.push(dir);
  cpSync(join(REPO, 'src'), join(dir, 'src'), { recursive: true });
  cpSync(join(REPO, 'package.json'), join(dir, 'package.json')); // src/version.ts reads it
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir'); // packages resolve
  for (const [file, text] of Object.entries(edits)) {
    const path = join(dir, file);
    mkdirSync(dirname(path), { recursive: true });
    let before = '';
    try {
      before = readFileSync(path, 'utf8');
    } catch {
      // a new file
    }
    writeFileSync(path, `${text}\n${before}`);
  }
  return dir;
}

const cruise = (cwd: string) => execa(DEPCRUISE, ['src', '--config', CONFIG, '--output-type', 'err'], { cwd, reject: false });

/**
 * One copy of src/ carrying every bad edit whose error is its own line (each in a file of its own),
 * cruised once: each case below finds its error in that one run. The loop case has a copy of its
 * own, as it asserts what is *not* reported.
 */
const BAD_IMPORTS: Record<string, string> = {
  'src/api/shapes.ts': "import type { Context } from '../context/index.js';\nimport 'undici';\nexport type Probe = Context;",
  'src/units/quote.ts': "import '../kit/action.js';",
  'src/errors.ts': "import './output/escape.js';",
  'src/sandbox/http.ts': "import '../errors.js';",
  'src/units/view.ts': "import type { ResellerClient } from '../sdk.js';\nexport type Probe = ResellerClient;",
  'src/sdk.ts': "import { printObject } from './output/index.js';\nexport const probe = printObject;",
  'src/mcp/results.ts': "import { parseListFlags } from '../commands/units/list.js';\nexport const probe = parseListFlags;",
};
let badCruise: ReturnType<typeof cruise> | undefined;
const cruiseBad = () => (badCruise ??= cruise(copyOfSrc(BAD_IMPORTS)));

/** The same for the Biome rule: every use of `process` outside src/cli.ts, linted once. */
const BAD_PROCESS: Record<string, string> = {
  'src/commands/me/show.ts':
    "// process.env is read in cli.ts only\nconst s = 'process.exit';\nexport const probe = () => process.env.HOME + s;",
  'src/units/view.ts': "import { env } from 'node:process';\nexport const probe = env;",
  'src/sdk.ts': 'export const probe = () => process.env.HOME;',
};
let badLint: ReturnType<typeof lintProcess> | undefined;
const lintBad = () => (badLint ??= lintProcess(copyOfSrc(BAD_PROCESS)));

describe('dependency-cruiser layer rules', () => {
  it('pass on the source as it is', async () => {
    const r = await cruise(copyOfSrc());
    expect(r.stdout + r.stderr).toContain('no dependency violations found');
    expect(r.exitCode).toBe(0);
  });

  it('fail on an upward import from the API layer to the context', async () => {
    const r = await cruiseBad();
    expect(r.exitCode).not.toBe(0);
    expect(r.stdout).toMatch(/error lower-imports-upward: src\/api\/shapes\.ts → src\/context\/index\.ts/);
  });

  it('fail on undici imported anywhere but src/net/undici-parts.ts', async () => {
    const r = await cruiseBad();
    expect(r.stdout).toMatch(/error undici-only-through-parts: src\/api\/shapes\.ts → \S*node_modules\/undici\//);
  });

  it('fail on a units module importing the command kit, and on a leaf importing the output layer', async () => {
    const r = await cruiseBad();
    expect(r.stdout).toMatch(/error domain-imports-upward: src\/units\/quote\.ts → src\/kit\/action\.ts/);
    expect(r.stdout).toMatch(/error leaf-imports-upward: src\/errors\.ts → src\/output\/escape\.ts/);
  });

  it('fail on a loop across folders even when one side is a dynamic import()', async () => {
    // api and output are one layer, so api → output alone is allowed; but output/format.ts already
    // imports api/enums.ts, so the pair is a loop across folders.
    const r = await cruise(copyOfSrc({ 'src/api/enums.ts': "export const probe = () => import('../output/format.js');" }));
    expect(r.exitCode).not.toBe(0);
    expect(r.stdout).toMatch(/error no-cycle-across-folders: src\/api\/enums\.ts → \n?\s*src\/output\/format\.ts/);
    expect(r.stdout).not.toContain('imports-upward');
  });

  it('fail when the sandbox imports anything outside src/sandbox', async () => {
    const r = await cruiseBad();
    expect(r.stdout).toMatch(/error sandbox-stands-alone: src\/sandbox\/http\.ts → src\/errors\.ts/);
  });
});

describe('only src/cli.ts touches process (a Biome rule, `npm run lint`)', () => {
  it('passes on the source as it is', async () => {
    const r = await lintProcess(copyOfSrc());
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
  });

  it('fails on process.env in a command, naming the file and line; comments and strings do not count', async () => {
    const r = await lintBad();
    expect(r.exitCode).toBe(1);
    const out = r.stdout + r.stderr;
    expect(out).toContain('only src/cli.ts may use `process`');
    expect(out).toContain('src/commands/me/show.ts:3:');
    expect(out).not.toContain('show.ts:1:');
    expect(out).not.toContain('show.ts:2:');
  });

  it('fails on an import of node:process', async () => {
    const r = await lintBad();
    expect(r.stdout + r.stderr).toContain('src/units/view.ts:1:');
  });
});

describe('the front doors (commands, src/mcp, src/sdk.ts)', () => {
  it('keep apart: a tool that imports a command handler fails, naming the rule', async () => {
    const r = await cruiseBad();
    expect(r.stdout).toMatch(/error front-doors-stay-apart: src\/mcp\/results\.ts → src\/commands\/units\/list\.ts/);
  });
});

describe('the SDK entry (src/sdk.ts)', () => {
  it('is imported by nothing in src', async () => {
    const r = await cruiseBad();
    expect(r.stdout).toMatch(/error sdk-is-an-entry: src\/units\/view\.ts → src\/sdk\.ts/);
  });

  it('stays headless: no context, config or output', async () => {
    const r = await cruiseBad();
    expect(r.stdout).toMatch(/error sdk-stays-headless: src\/sdk\.ts → src\/output\/index\.ts/);
  });

  it('uses no process either (the Biome rule covers it)', async () => {
    const r = await lintBad();
    expect(r.stdout + r.stderr).toContain('src/sdk.ts:1:');
  });
});
