import { describe, expect, it } from 'vitest';
import { main } from '../src/main.js';
import { fakeIO } from './helpers/index.js';
import pkg from '../package.json' with { type: 'json' };

describe('main() in-process', () => {
  it('--version prints the package version and exits 0', async () => {
    const io = fakeIO();
    expect(await main(['--version'], io)).toBe(0);
    expect(io.out()).toBe(`${pkg.version}\n`);
  });

  it('--help lists global options and examples on stdout', async () => {
    const io = fakeIO();
    expect(await main(['--help'], io)).toBe(0);
    expect(io.out()).toContain('--base-url <url>');
    expect(io.out()).toContain('Examples:');
    expect(io.err()).toBe('');
  });

  it('no arguments prints help and exits 0', async () => {
    const io = fakeIO();
    expect(await main([], io)).toBe(0);
    expect(io.out()).toContain('Usage: proxyctl');
  });

  it('an unknown command exits 2 with a suggestion', async () => {
    const io = fakeIO();
    expect(await main(['completon', 'bash'], io)).toBe(2);
    expect(io.err()).toContain("unknown command 'completon'");
    expect(io.err()).toContain('Did you mean completion?');
  });

  it('an unknown option exits 2 with a suggestion', async () => {
    const io = fakeIO();
    expect(await main(['--jsn'], io)).toBe(2);
    expect(io.err()).toContain("unknown option '--jsn'");
    expect(io.err()).toContain('Did you mean --json?');
  });

  it('an unknown output format exits 2', async () => {
    const io = fakeIO();
    expect(await main(['completion', 'bash', '-o', 'yaml'], io)).toBe(2);
    expect(io.err()).toContain('yaml');
  });

  it('global options work after the subcommand', async () => {
    const io = fakeIO();
    expect(await main(['completion', 'bash', '--no-color', '--quiet', '--timeout', '5'], io)).toBe(0);
    expect(io.out()).toContain('complete -F _proxyctl proxyctl');
  });

  it('a bad global value raised inside an action is a usage error, JSON on stderr in json mode', async () => {
    const io = fakeIO();
    expect(await main(['completion', 'bash', '--timeout', 'never', '--json'], io)).toBe(2);
    expect(JSON.parse(io.err())).toEqual({ error: { code: 'usage_error', message: expect.stringContaining('--timeout') } });
    expect(io.out()).toBe('');
  });

  it('completion scripts name the registered commands', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const io = fakeIO();
      expect(await main(['completion', shell], io)).toBe(0);
      expect(io.out()).toContain('completion');
    }
  });
});
