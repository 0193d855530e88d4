// The client's rate budget against the sandbox's own fixed-window limiter, on a fake clock: the
// paced bulk create that sometimes drew a 429, replayed deterministically.
//
// The server's window starts with its first request and ends a window length later, at any
// millisecond; X-RateLimit-Reset is in whole seconds, rounded up. So the client believes a window
// lasts up to a second longer than it does, and requests it sends in that gap open the server's
// next window. Their answers tell the client so (a later reset, fewer remaining). The bug: a
// request that had gone to sleep until the old reset woke up and set the budget back to the
// full limit, throwing that news away, and the batch then overran the window it was already in.
import { describe, expect, it } from 'vitest';
import { RateBudget, type RateHeaders, type RateTicket } from '../../src/api/rate-limiter.js';
import { RateLimiter } from '../../src/sandbox/ratelimit.js';

const LIMIT = 6;
const WINDOW_MS = 1000;

class FakeTime {
  now = 0;
  private sleepers: { until: number; resolve: () => void }[] = [];
  sleep = (ms: number) => new Promise<void>((resolve) => this.sleepers.push({ until: this.now + ms, resolve }));
  /** Moves the clock to `t`, waking every sleeper that is due, one at a time in deadline order. */
  async advanceTo(t: number): Promise<void> {
    for (;;) {
      await settle();
      const due = this.sleepers.filter((s) => s.until <= t).sort((a, b) => a.until - b.until)[0];
      if (!due) break;
      this.sleepers.splice(this.sleepers.indexOf(due), 1);
      this.now = Math.max(this.now, due.until);
      due.resolve();
    }
    this.now = Math.max(this.now, t);
    await settle();
  }

  /** Jumps from one wake-up to the next until nothing sleeps any more. */
  async runUntilIdle(): Promise<void> {
    await settle();
    while (this.sleepers.length) {
      await this.advanceTo(Math.min(...this.sleepers.map((s) => s.until)));
    }
  }
}

/** Lets every promise continuation that is ready run (a macrotask turn drains the microtasks). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Server {
  hit(key: string, now: number): { allowed: boolean; limit: number; remaining: number; reset: number; retryAfter: number };
}

function harness(latency: () => number = () => 20, server: Server = new RateLimiter(LIMIT, WINDOW_MS)) {
  const time = new FakeTime();
  const budget = new RateBudget(() => time.now, time.sleep);
  let refused = 0;
  let sent = 0;
  /** The server counts a request now; returns the headers it answers with (a 429's too). */
  const arrive = (): RateHeaders & { refused?: number } => {
    sent += 1;
    const b = server.hit('key', time.now);
    const headers = { limit: b.limit, remaining: b.remaining, resetAt: b.reset * 1000 };
    if (b.allowed) return headers;
    refused += 1;
    return { ...headers, refused: b.retryAfter };
  };
  /** As the client does: the headers first, then a 429 spends the budget until Retry-After. */
  const answer = (h: RateHeaders & { refused?: number }, ticket?: RateTicket) => {
    budget.update(h, ticket);
    if (h.refused !== undefined) budget.exhaust(time.now + h.refused * 1000);
  };
  /** acquire → arrive at the server at once → its answer `latency()` ms later (others go meanwhile). */
  const request = async (): Promise<void> => {
    const ticket = await budget.acquire();
    const headers = arrive();
    await time.sleep(latency());
    answer(headers, ticket);
    // A refused request is sent again, as the client does.
    if (headers.refused !== undefined) return request();
  };
  return { time, budget, arrive, answer, request, refused: () => refused, sent: () => sent };
}

describe('RateBudget against a fixed-window server', () => {
  it('a request that slept until the old reset keeps what newer answers said about the window', async () => {
    const h = harness();
    // t=10: the first request opens the server's window [10, 1010); Reset says 2 s (rounded up).
    h.time.now = 10;
    const first = h.request();
    await h.time.advanceTo(30);
    await first;
    // t=1300: the client still believes in that window (until 2000) with 5 left and sends 5. The
    // server's window ended at 1010: they open a new one, [1300, 2300), with 1 left.
    await h.time.advanceTo(1300);
    for (let i = 0; i < 5; i++) await h.budget.acquire();
    const answers = Array.from({ length: 5 }, () => h.arrive());
    // More work queues while they are in flight; the budget is spent, so it sleeps until 2000 + slack.
    const more = Array.from({ length: 6 }, () => h.request());
    await h.time.advanceTo(1310);
    for (const a of answers) h.answer(a);
    // Wake the sleeper before the server's window ends (2300): only 1 more fits in it.
    await h.time.advanceTo(2299);
    expect(h.refused()).toBe(0);
    await h.time.advanceTo(4000);
    await Promise.all(more);
    expect(h.refused()).toBe(0);
  });

  it('the paced bulk create stays under the limit on a loaded machine, whatever the phase of the window', async () => {
    // As test/units/purchases.e2e.test.ts runs it: the test's own request opens the window, the
    // CLI starts some time later, reads the pool and the balance, then buys 12 units in 4 lanes.
    // Answers take up to 300 ms (a fixed pseudo-random sequence, so every run is the same).
    const failures: string[] = [];
    for (let phase = 0; phase < 1000; phase += 53) {
      for (const startup of [300, 600, 900, 1200]) {
        let seed = phase + startup;
        const h = harness(() => {
          seed = (seed * 1103515245 + 12345) % 2 ** 31;
          return 2 + (seed % 300);
        });
        h.time.now = phase;
        h.arrive();
        h.time.now += startup;
        const cli = async () => {
          await h.request();
          await h.request();
          let left = 12;
          const lane = async () => {
            while (left-- > 0) await h.request();
          };
          await Promise.all([lane(), lane(), lane(), lane()]);
        };
        const done = cli();
        await h.time.runUntilIdle();
        await done;
        if (h.refused()) failures.push(`phase ${phase} ms, start-up ${startup} ms: ${h.refused()} refused`);
      }
    }
    expect(failures).toEqual([]);
  });
});

/** Windows aligned to the clock (0–1000, 1000–2000, …) rather than started by their first request. */
class AlignedLimiter implements Server {
  private start = -1;
  private count = 0;
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}
  hit(_key: string, now: number) {
    const start = Math.floor(now / this.windowMs) * this.windowMs;
    if (start !== this.start) {
      this.start = start;
      this.count = 0;
    }
    const allowed = this.count < this.limit;
    if (allowed) this.count += 1;
    const resetMs = start + this.windowMs;
    return {
      allowed,
      limit: this.limit,
      remaining: this.limit - this.count,
      reset: Math.ceil(resetMs / 1000),
      retryAfter: Math.max(1, Math.ceil((resetMs - now) / 1000)),
    };
  }
}

/** `n` requests in `lanes` lanes from t = `start`; resolves with the fake time until the last answer. */
async function bulk(h: ReturnType<typeof harness>, n: number, lanes: number, start: number): Promise<number> {
  h.time.now = start;
  let left = n;
  let last = start;
  const lane = async () => {
    while (left-- > 0) {
      await h.request();
      last = h.time.now;
    }
  };
  const done = Promise.all(Array.from({ length: lanes }, lane));
  await h.time.runUntilIdle();
  await done;
  return last - start;
}

describe('RateBudget uses the whole window, not the rounded Reset', () => {
  it('a bulk run takes the rate bound (within 5 %), whatever the phase of its windows, and draws no 429', async () => {
    // 60 requests at 6 per 1 s window need 10 windows: 9 full ones and the last request's answer.
    // Waiting for the rounded Reset (+ slack) made each 1 s window cost about 2 s.
    const failures: string[] = [];
    for (let phase = 0; phase < 1000; phase += 97) {
      const h = harness(() => 5);
      const took = await bulk(h, 60, 4, 5000 + phase);
      if (h.refused() || took > 9 * WINDOW_MS * 1.05) failures.push(`phase ${phase}: ${took} ms, ${h.refused()} refused`);
    }
    expect(failures).toEqual([]);
  });

  it('with slow, uneven answers (up to 300 ms) it still draws no 429', async () => {
    const failures: string[] = [];
    for (let phase = 0; phase < 1000; phase += 131) {
      let seed = phase;
      const h = harness(() => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return 2 + (seed % 300);
      });
      await bulk(h, 60, 4, 5000 + phase);
      if (h.refused()) failures.push(`phase ${phase}: ${h.refused()} refused`);
    }
    expect(failures).toEqual([]);
  });

  it('a server whose windows are aligned to the clock costs at most one 429, then Reset alone paces', async () => {
    for (const phase of [0, 250, 500, 990]) {
      const h = harness(() => 5, new AlignedLimiter(LIMIT, WINDOW_MS));
      await bulk(h, 60, 4, 5000 + phase);
      expect(h.refused(), `phase ${phase}`).toBeLessThanOrEqual(1);
      expect(h.sent() - h.refused()).toBe(60);
    }
  });

  it('a window that is not a whole number of seconds costs at most one 429', async () => {
    for (const phase of [0, 400, 800]) {
      const h = harness(() => 5, new RateLimiter(LIMIT, 1500));
      await bulk(h, 60, 4, 5000 + phase);
      expect(h.refused(), `phase ${phase}`).toBeLessThanOrEqual(1);
      expect(h.sent() - h.refused()).toBe(60);
    }
  });
});
