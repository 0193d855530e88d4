// The bulk runner in-process: bounded concurrency, Ctrl-C semantics and the exit-code decision.
import { describe, expect, it } from 'vitest';
import { createContext, resolveGlobals } from '../../src/context/index.js';
import { ApiError, InterruptedError, PartialFailureError, exitCodeFor } from '../../src/errors.js';
import { runBulk, settleBulk } from '../../src/units/bulk.js';
import { fakeIO } from '../helpers/index.js';

function ctxWith(signal = new AbortController().signal) {
  const io = fakeIO();
  return { io, ctx: createContext(io, resolveGlobals({}, io), signal) };
}

const later = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('runBulk', () => {
  it('never runs more than the concurrency at once and keeps input order', async () => {
    const { ctx } = ctxWith();
    let running = 0;
    let peak = 0;
    const report = await runBulk(ctx, [5, 1, 4, 2, 3, 1, 2], { verb: 'done', label: String, concurrency: 3 }, async (n) => {
      peak = Math.max(peak, ++running);
      await later(n * 3);
      running -= 1;
      return n * 10;
    });
    expect(peak).toBe(3);
    expect(report.outcomes.map((o) => (o.ok ? o.value : null))).toEqual([50, 10, 40, 20, 30, 10, 20]);
    expect(() => settleBulk(ctx, report, 'done')).not.toThrow();
  });

  it('after Ctrl-C starts nothing new, lets started items finish, and exits 130 with a summary', async () => {
    const ac = new AbortController();
    const { ctx, io } = ctxWith(ac.signal);
    const started: number[] = [];
    const report = await runBulk(ctx, [0, 1, 2, 3, 4, 5], { verb: 'created', label: (n) => `#${n}`, concurrency: 2 }, async (n) => {
      started.push(n);
      if (n === 1) ac.abort();
      await later(10);
      return n;
    });
    expect(started).toEqual([0, 1]);
    expect(report).toMatchObject({ total: 6, notStarted: 4, interrupted: true });
    expect(report.outcomes.map((o) => o.ok)).toEqual([true, true]);
    let err: unknown;
    try {
      settleBulk(ctx, report, 'created');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InterruptedError);
    expect(io.err()).toContain('2 of 6 created: #0, #1');
    expect(io.err()).toContain('4 not started');
  });

  it('some failed → exit 10 with per-item outcomes; all failed → the failure’s own exit code', async () => {
    const { ctx } = ctxWith();
    const broke = new ApiError({ status: 402, code: 'insufficient_balance', message: 'no money', requestId: 'r1' });
    const mixed = await runBulk(ctx, [1, 2, 3], { verb: 'x', label: (n) => `#${n}` }, async (n) => {
      if (n === 2) throw broke;
      return n;
    });
    const e = (() => {
      try {
        settleBulk(ctx, mixed, 'x');
      } catch (x) {
        return x;
      }
    })();
    expect(e).toBeInstanceOf(PartialFailureError);
    expect(exitCodeFor(e)).toBe(10);
    expect((e as PartialFailureError).outcomes).toEqual([
      { item: '#1', ok: true },
      { item: '#2', ok: false, error: { code: 'insufficient_balance', message: 'no money', requestId: 'r1' } },
      { item: '#3', ok: true },
    ]);
    const none = await runBulk(ctx, [1, 2], { verb: 'x', label: String }, async () => {
      throw broke;
    });
    const e2 = (() => {
      try {
        settleBulk(ctx, none, 'x');
      } catch (x) {
        return x;
      }
    })();
    expect(exitCodeFor(e2)).toBe(6);
  });
});
