// Output through a real OS pipe into a slow reader arrives whole: the same bytes as the same
// command writing to a file, and the exit code of proxyctl itself (not of the reader) is 0.
// A reader that stops early (`| head -1`) ends proxyctl quietly with 0.
import { execa } from 'execa';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, type Kit, seedUnits, startKit } from '../helpers/index.js';

const UNITS = 2000;
let kit: Kit;
let dir: string;

beforeAll(async () => {
  // A generous rate budget: every test reads all 2,000 units twice.
  kit = await startKit({ rateLimit: 100_000 });
  seedUnits(kit, UNITS);
  dir = mkdtempSync(join(tmpdir(), 'proxyctl-pipes-'));
});
afterAll(async () => {
  await kit?.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = () => cleanEnv({ ...kit.home.env, PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey });

/**
 * Runs `proxyctl args` once with stdout redirected to a file and once into a pipe whose reader
 * only starts reading after a second; returns both outputs and proxyctl's own exit codes.
 */
async function fileAndSlowPipe(name: string, args: string[]) {
  const f = (s: string) => join(dir, `${name}.${s}`);
  // "$@" carries the arguments through sh untouched; the rc file keeps proxyctl's own exit code.
  const toFile = `node "$0" "$@" > '${f('file')}' 2> '${f('file.err')}'; echo $? > '${f('file.rc')}'`;
  const toPipe = `{ node "$0" "$@" 2> '${f('pipe.err')}'; echo $? > '${f('pipe.rc')}'; } | (sleep 1; cat > '${f('pipe')}')`;
  await Promise.all([
    execa('sh', ['-c', toFile, BIN, ...args], { env: env(), extendEnv: true, timeout: 120_000 }),
    execa('sh', ['-c', toPipe, BIN, ...args], { env: env(), extendEnv: true, timeout: 120_000 }),
  ]);
  const read = (s: string) => readFileSync(f(s), 'utf8');
  return {
    file: read('file'),
    pipe: read('pipe'),
    fileRc: read('file.rc').trim(),
    pipeRc: read('pipe.rc').trim(),
    pipeErr: read('pipe.err'),
  };
}

describe('output through a pipe to a slow reader is complete', () => {
  const cases: [string, string[], (out: string) => void][] = [
    ['json', ['units', 'list', '--all', '--json'], (o) => expect(JSON.parse(o)).toHaveLength(UNITS)],
    ['jsonl', ['units', 'list', '--all', '-o', 'jsonl'], (o) => expect(o.trimEnd().split('\n')).toHaveLength(UNITS)],
    ['csv', ['units', 'list', '--all', '-o', 'csv'], (o) => expect(o.trimEnd().split('\n')).toHaveLength(UNITS + 1)],
    ['conn', ['units', 'list', '--all', '-o', 'conn'], (o) => expect(o.trimEnd().split('\n')).toHaveLength(UNITS)],
    ['table', ['units', 'list', '--all', '--no-color'], (o) => expect(o).toContain(`PRX-${UNITS}`)],
    ['api', ['api', 'GET', '/units?pageSize=200'], (o) => expect(JSON.parse(o).data).toHaveLength(200)],
    ['state', ['sandbox', 'state'], (o) => expect(JSON.parse(o).units).toHaveLength(UNITS)],
    ['paginate', ['api', '/units', '-F', 'pageSize=200', '--paginate'], (o) => expect(JSON.parse(o).data).toHaveLength(UNITS)],
    ['url', ['units', 'list', '--conn-format', 'url'], (o) => expect(o.trimEnd().split('\n')).toHaveLength(UNITS)],
  ];
  for (const [name, args, check] of cases) {
    it(`${args.join(' ')}: the same bytes as to a file, exit 0`, async () => {
      const r = await fileAndSlowPipe(name, args);
      expect(r.fileRc).toBe('0');
      check(r.file);
      // Larger than a pipe's buffer (64 KiB), so a premature exit would cut it short.
      if (name !== 'api') expect(r.file.length).toBeGreaterThan(70_000);
      expect(r.pipeErr).toBe('');
      expect(r.pipeRc).toBe('0');
      expect(r.pipe.length).toBe(r.file.length);
      // Compared as a boolean: a diff of two 1 MB outputs helps nobody.
      expect(r.pipe === r.file).toBe(true);
    }, 120_000);
  }

  it("units check: every result reaches a slow reader, and the exit code is still the check's (10)", async () => {
    // 800 lines whose proxies refuse at once (nothing listens on port 9): a large, fast failing run.
    const list = join(dir, 'refusing.txt');
    writeFileSync(list, `${Array.from({ length: 800 }, (_, i) => `127.0.0.1:9:user${i}:pass${i}`).join('\n')}\n`);
    const r = await fileAndSlowPipe('check', [
      'units',
      'check',
      '--from-file',
      list,
      '--protocol',
      'socks5',
      '--concurrency',
      '32',
      '-o',
      'jsonl',
    ]);
    expect(r.fileRc).toBe('10');
    expect(r.pipeRc).toBe('10');
    expect(r.file.length).toBeGreaterThan(70_000);
    // Checks finish in any order: compare the sets of lines.
    const lines = (o: string) => o.trimEnd().split('\n').sort();
    expect(lines(r.file)).toHaveLength(800);
    expect(lines(r.pipe).join('\n') === lines(r.file).join('\n')).toBe(true);
  }, 120_000);

  it('a reader that stops early (| head -1) ends proxyctl quietly with exit 0', async () => {
    const f = (s: string) => join(dir, `head.${s}`);
    const script = `{ node "$0" "$@" 2> '${f('err')}'; echo $? > '${f('rc')}'; } | head -1 > '${f('out')}'`;
    await execa('sh', ['-c', script, BIN, 'units', 'list', '--all', '-o', 'jsonl'], { env: env(), extendEnv: true, timeout: 120_000 });
    expect(readFileSync(f('rc'), 'utf8').trim()).toBe('0');
    expect(readFileSync(f('err'), 'utf8')).toBe('');
    expect(JSON.parse(readFileSync(f('out'), 'utf8')).proxyRef).toBe('PRX-1');
  }, 120_000);
});
