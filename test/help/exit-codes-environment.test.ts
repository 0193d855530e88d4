// `proxyctl help exit-codes` and `proxyctl help environment` print the contract's tables from the
// one source (src/errors.ts, src/globals.ts), and the README's tables say the same.
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { EXIT_CODE_MEANINGS, ExitCode } from '../../src/errors.js';
import { ENVIRONMENT } from '../../src/globals.js';
import { proxyctl, ran, tempHome } from '../helpers/index.js';

const home = tempHome();
afterAll(() => home.cleanup());

/** The rows of the README table under `## heading`: first cell → second cell. */
function readmeTable(heading: string): [string, string][] {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.split(`\n## ${heading}\n`)[1]!.split('\n## ')[0]!;
  return section
    .split('\n')
    .filter((l) => l.startsWith('|'))
    .slice(2)
    .map((l) => {
      const [a, b] = l
        .split(/(?<!\\)\|/)
        .slice(1, 3)
        .map((c) => c.trim());
      return [a!.replace(/^`|`$/g, ''), b!];
    });
}

const flat = (s: string) => s.replace(/\s+/g, ' ');

describe('proxyctl help exit-codes', () => {
  it('prints every exit code of src/errors.ts with its meaning, exit 0', async () => {
    const r = await ran(proxyctl(['help', 'exit-codes'], { home }));
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    const codes = Object.values(ExitCode).sort((a, b) => a - b);
    expect(Object.keys(EXIT_CODE_MEANINGS).map(Number)).toEqual(codes);
    const printed = r.out
      .split('\n')
      .filter((l) => /^ {2}\d/.test(l))
      .map((l) => Number(l.trim().split(' ')[0]));
    expect(printed).toEqual(codes);
    for (const [code, meaning] of Object.entries(EXIT_CODE_MEANINGS)) expect(flat(r.out)).toContain(`${code} ${meaning}`);
  });

  it("the README's table is the same table", () => {
    expect(readmeTable('Exit codes')).toEqual(Object.entries(EXIT_CODE_MEANINGS));
  });
});

describe('proxyctl help environment', () => {
  it('prints every variable with its meaning, exit 0', async () => {
    const r = await ran(proxyctl(['help', 'environment'], { home }));
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    for (const { name, meaning } of ENVIRONMENT) expect(flat(r.out)).toContain(`${name} ${meaning}`);
    // The contract's variables are all there.
    for (const name of [
      'PROXYCTL_API_KEY',
      'PROXYCTL_BASE_URL',
      'PROXYCTL_PROFILE',
      'PROXYCTL_CONFIG_DIR',
      'PROXYCTL_DEBUG',
      'NO_COLOR',
      'FORCE_COLOR',
      'CI',
    ])
      expect(r.out).toContain(`\n  ${name} `);
  });

  it("the README's table is the same table", () => {
    expect(readmeTable('Environment')).toEqual(ENVIRONMENT.map((e) => [e.name, e.meaning]));
  });
});
