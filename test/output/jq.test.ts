// `--jq EXPR` on every command that prints JSON, against the sandbox: jq 1.8 through jq-wasm, on
// the document -o json prints (or each line of -o jsonl); strings raw as gh prints them, other
// values as JSON (one line into a pipe, indented on a terminal); a bad expression, or --jq where
// no JSON is printed, is exit 2 before any request; a failure on the data is exit 2 at the end
// with nothing printed for it, and what the command did (a purchase) stays done (then exit 10:
// test/output/jq-after-charge.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTerminal, type Kit, seedFleet, startKit } from '../helpers/index.js';

let kit: Kit;
let refs: string[];
beforeAll(async () => {
  kit = await startKit({ balance: 100 });
  refs = seedFleet(kit, [
    { poolId: 'US-11', hoursLeft: 5, description: 'acme' },
    { poolId: 'GB-11', hoursLeft: 50, description: 'line one\nline two' },
    { poolId: 'US-12', hoursLeft: 30, protocol: 'http_noauth' },
  ]);
});
afterAll(() => kit.close());

/** The API lists units by pool: GB-11, US-11, US-12. */
const inApiOrder = () => [refs[1], refs[0], refs[2]];

const run = async (...args: string[]) => {
  const r = await kit.run(args, { stripFinalNewline: false });
  return { code: r.exitCode, out: String(r.stdout), err: String(r.stderr) };
};

describe('--jq filters the JSON a command prints', () => {
  it('a list: the expression gets the array; strings print raw, one per line', async () => {
    const r = await run('units', 'list', '--jq', '.[].proxyRef');
    expect(r).toEqual({ code: 0, out: `${inApiOrder().join('\n')}\n`, err: '' });
    // As gh: a string with a newline prints it; numbers, objects and null print as JSON, one line each into a pipe.
    expect((await run('units', 'list', '--jq', '.[0].description')).out).toBe('line one\nline two\n');
    expect((await run('units', 'list', '--jq', 'length')).out).toBe('3\n');
    expect((await run('units', 'list', '--jq', '.[] | select(.protocol == "http_noauth") | {ref: .proxyRef, credentials}')).out).toBe(
      `{"ref":"${refs[2]}","credentials":null}\n`,
    );
    expect((await run('units', 'list', '--jq', 'map(select(.country == "FR"))')).out).toBe('[]\n');
    expect((await run('units', 'list', '--jq', '.[] | select(.country == "FR")')).out).toBe('');
  });

  it('-o jsonl runs it on each item as the pages stream; --json is the same as no -o', async () => {
    const lines = await run('units', 'list', '-o', 'jsonl', '--jq', '.proxyRef, .poolId');
    expect(lines).toEqual({ code: 0, out: 'PRX-2\nGB-11\nPRX-1\nUS-11\nPRX-3\nUS-12\n', err: '' });
    expect((await run('units', 'list', '--json', '--jq', '.[0].poolId')).out).toBe('GB-11\n');
  });

  it('one object, the raw API (one page or --paginate), status and the catalogue', async () => {
    const unit = await run('units', 'get', refs[0]!, '--jq', '[.poolId, .country, .status]');
    expect(unit.out).toBe('["US-11","US","ACTIVE"]\n');
    expect((await run('api', '/units', '--jq', '.data | map(.proxyRef) | join(",")')).out).toBe(`${inApiOrder().join(',')}\n`);
    expect((await run('api', '/units?pageSize=1', '--paginate', '--jq', '.data | length')).out).toBe('3\n');
    expect((await run('status', '--jq', '.balanceUsd')).out).toBe('100\n');
    expect((await run('pools', 'US-12', '--jq', '.provider')).out).toBe('T-Mobile\n');
    expect((await run('webhook', 'log', '--jq', 'length')).out).toBe('0\n');
  });

  it('on a terminal, JSON values are indented and control characters in raw strings shown, not obeyed', async () => {
    const env = { ...kit.home.env, PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey };
    const t = inTerminal(env, ['units', 'get', refs[0]!, '--jq', '{poolId, evil: "a\\u001b]0;x\\u0007b\\tc"} | ., .evil']);
    expect((await t.child).exitCode, t.screen()).toBe(0);
    const screen = t.screen().replace(/\r\n/g, '\n');
    expect(screen).toContain('{\n  "poolId": "US-11",\n  "evil": "a\\u001b]0;x\\u0007b\\tc"\n}\n');
    expect(screen).toContain('a\\x1b]0;x\\x07b\tc\n');
  });
});

describe('refused before any request (exit 2)', () => {
  it('a bad expression, said as jq says it, where in the expression', async () => {
    const before = kit.sb.requestLog().length;
    for (const [expr, message] of [
      ['.[] |', 'error: --jq: syntax error at the end of ".[] |" (is it complete, are its brackets balanced?) (code jq_error)'],
      ['nosuch(1)', 'error: --jq: nosuch/1 is not defined in "nosuch(1)" (column 1)'],
      ['.a | $x', 'error: --jq: $x is not defined in ".a | $x" (column 6)'],
      ['.[0]\n| .a +', 'syntax error at the end of'],
      [' ', '--jq needs a jq expression'],
    ]) {
      const r = await run('units', 'list', '--jq', expr!);
      expect({ expr, code: r.code, out: r.out }).toEqual({ expr, code: 2, out: '' });
      expect(r.err).toContain(message);
    }
    // With --json, the error is the JSON error object, as for any error.
    const json = await run('units', 'list', '--json', '--jq', '.[');
    expect(JSON.parse(json.err).error).toMatchObject({ code: 'jq_error' });
    expect(kit.sb.requestLog().length).toBe(before);
  });

  it('an expression that would never end is not run by the check', async () => {
    const r = await run('units', 'get', 'PRX-404', '--jq', 'repeat(.)');
    expect(r.code).toBe(5);
  });

  it('with a format that is not JSON, or on a command that prints no JSON', async () => {
    const before = kit.sb.requestLog().length;
    for (const [args, message] of [
      [
        ['units', 'list', '-o', 'csv', '--jq', '.'],
        '--jq filters JSON: use it alone, with -o json or with -o jsonl (each line), not with -o csv',
      ],
      [['units', 'list', '-o', 'conn', '--jq', '.'], 'not with -o conn'],
      [['completion', 'bash', '--jq', '.'], '--jq is not available for this command: it prints no JSON'],
      [['config', 'get', 'check-target', '--jq', '.'], '--jq is not available for this command'],
    ] as const) {
      const r = await run(...args);
      expect({ args, code: r.code, out: r.out }).toEqual({ args, code: 2, out: '' });
      expect(r.err).toContain(message);
    }
    expect(kit.sb.requestLog().length).toBe(before);
  });
});

describe('sandbox state prints JSON, so --jq filters it', () => {
  it('--jq and -o json work on the state; a format that is not JSON is refused before any request', async () => {
    const r = await run('sandbox', 'state', '--jq', '.units | length');
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: '' });
    expect(Number(r.out.trim())).toBe((await kit.state()).units.length);
    const whole = await run('sandbox', 'state', '-o', 'json');
    expect(JSON.parse(whole.out).balanceUsd).toBe((await kit.state()).balanceUsd);
    const csv = await run('sandbox', 'state', '-o', 'csv');
    expect([csv.code, csv.out]).toEqual([2, '']);
  });
});

describe('an expression that fails on the data', () => {
  it('exit 2, nothing printed for it', async () => {
    const r = await run('units', 'list', '--jq', '.proxyRef');
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain('error: --jq: Cannot index array with string ("proxyRef"); nothing printed for it');
  });

  it('after a purchase: the unit stays bought and the charge is said; only the filtered output is missing (exit 10)', async () => {
    const before = await kit.state();
    const r = await run('units', 'create', '--pool', 'US-11', '--period', '3h', '--yes', '--jq', '.[0]');
    expect(r.code).toBe(10);
    expect(r.out).toBe('');
    expect(r.err).toContain('error: --jq: Cannot index object with number');
    const after = await kit.state();
    expect(after.units).toHaveLength(before.units.length + 1);
    expect(after.balanceUsd).toBeLessThan(before.balanceUsd);
    expect(r.err).toMatch(/charged \d+\.\d\d USD/i);
  });
});
