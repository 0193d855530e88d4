import { describe, expect, it } from 'vitest';
import { shouldColor } from '../src/io.js';
import { createContext, resolveGlobals } from '../src/context/index.js';
import { fakeIO } from './helpers/index.js';

describe('colour decision', () => {
  it.each([
    ['TTY, nothing set', { flag: true, env: {}, isTTY: true }, true],
    ['piped, nothing set', { flag: true, env: {}, isTTY: false }, false],
    ['--no-color on a TTY', { flag: false, env: {}, isTTY: true }, false],
    ['--no-color beats FORCE_COLOR', { flag: false, env: { FORCE_COLOR: '1' }, isTTY: true }, false],
    ['NO_COLOR on a TTY', { flag: true, env: { NO_COLOR: '1' }, isTTY: true }, false],
    ['empty NO_COLOR is ignored', { flag: true, env: { NO_COLOR: '' }, isTTY: true }, true],
    ['NO_COLOR beats FORCE_COLOR', { flag: true, env: { NO_COLOR: '1', FORCE_COLOR: '1' }, isTTY: true }, false],
    ['FORCE_COLOR when piped', { flag: true, env: { FORCE_COLOR: '1' }, isTTY: false }, true],
    ['FORCE_COLOR=0 on a TTY', { flag: true, env: { FORCE_COLOR: '0' }, isTTY: true }, false],
    ['FORCE_COLOR=false on a TTY', { flag: true, env: { FORCE_COLOR: 'false' }, isTTY: true }, false],
    ['TERM=dumb on a TTY', { flag: true, env: { TERM: 'dumb' }, isTTY: true }, false],
  ])('%s → %s', (_name, input, expected) => {
    expect(shouldColor(input)).toBe(expected);
  });

  it('decides stdout and stderr separately', () => {
    const io = { ...fakeIO(), stdoutIsTTY: false, stderrIsTTY: true };
    const ctx = createContext(io, resolveGlobals({}, io), new AbortController().signal);
    expect(ctx.stdoutColor).toBe(false);
    expect(ctx.stderrColor).toBe(true);
  });
});

describe('global options', () => {
  it('applies flag > env > default', () => {
    const io = fakeIO({ env: { PROXYCTL_PROFILE: 'work', PROXYCTL_BASE_URL: 'http://127.0.0.1:1' } });
    expect(resolveGlobals({}, io)).toMatchObject({ profile: 'work', baseUrl: 'http://127.0.0.1:1', timeoutMs: 30_000 });
    expect(resolveGlobals({ profile: 'home', baseUrl: 'http://127.0.0.1:2' }, io)).toMatchObject({
      profile: 'home',
      baseUrl: 'http://127.0.0.1:2',
    });
  });

  it('--json means -o json, and conflicts with another -o', () => {
    const io = fakeIO();
    expect(resolveGlobals({ json: true }, io).output).toBe('json');
    expect(() => resolveGlobals({ json: true, output: 'csv' }, io)).toThrow(/conflicts/);
  });

  it('CI or --no-input disables prompts, and so does a non-TTY stdin', () => {
    const tty = fakeIO({ tty: true });
    expect(createContext(tty, resolveGlobals({}, tty), new AbortController().signal).canPrompt).toBe(true);
    const ci = fakeIO({ tty: true, env: { CI: 'true' } });
    expect(createContext(ci, resolveGlobals({}, ci), new AbortController().signal).canPrompt).toBe(false);
    expect(createContext(tty, resolveGlobals({ input: false }, tty), new AbortController().signal).canPrompt).toBe(false);
    const piped = fakeIO({ tty: true, stdinTTY: false });
    expect(createContext(piped, resolveGlobals({}, piped), new AbortController().signal).canPrompt).toBe(false);
  });

  it('PROXYCTL_DEBUG=1 turns on debug; --timeout is validated', () => {
    expect(resolveGlobals({}, fakeIO({ env: { PROXYCTL_DEBUG: '1' } })).debug).toBe(true);
    expect(resolveGlobals({}, fakeIO({ env: { PROXYCTL_DEBUG: '0' } })).debug).toBe(false);
    expect(resolveGlobals({ timeout: '2.5' }, fakeIO()).timeoutMs).toBe(2500);
    expect(() => resolveGlobals({ timeout: 'soon' }, fakeIO())).toThrow(/--timeout/);
    expect(() => resolveGlobals({ timeout: '0' }, fakeIO())).toThrow(/--timeout/);
  });
});
