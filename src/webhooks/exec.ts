// `webhook listen --exec CMD`: runs CMD through the shell once per event, after the delivery was
// answered, at most `concurrency` at a time (the rest wait in order). The payload's raw bytes go
// to its stdin; PROXYCTL_EVENT, PROXYCTL_PROXY_REF, PROXYCTL_DELIVERY_ID (the delivery's own id,
// as the log shows it; PROXYCTL_EVENT_ID is the same), PROXYCTL_ATTEMPT_ID (this attempt's
// X-Service-Delivery) and, for a test delivery, PROXYCTL_TEST=1 to its environment. Its output goes to the given stream (stderr: stdout stays the listener's
// records). It reports, never writes a line itself: the command draws the events.
import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import type { Env } from '../io.js';
import { deliveryKey, HandledOnce } from './dedupe.js';
import type { ReceivedDelivery } from './receiver.js';

export interface ExecJob {
  /** 1, 2, …: the order the events arrived in. */
  seq: number;
  event: string;
  proxyRef: string | undefined;
  /** The delivery's own id (the payload's `id`), the same on every attempt. */
  deliveryId: string | undefined;
  /** The attempt that was answered (X-Service-Delivery). */
  attemptId: string | undefined;
  /** A test delivery (`test: true` in the payload), e.g. from `webhook test`. */
  test: boolean;
  body: Buffer;
}

/** Deliveries remembered as already run (by their key); the oldest forgotten past this many. */
const MAX_SUBMITTED = 10_000;

/**
 * What turns answered deliveries into jobs: a delivery of a chosen event (`on`; empty: every event)
 * becomes one job, once. "Once" is counted here, when the answer has left, not by the receiver's
 * `redelivery` flag: a first delivery whose answer never finished (the sender hung up) is retried
 * by the API, and that retry must still run the command.
 */
export function jobsFromDeliveries(
  on: readonly string[],
  max = MAX_SUBMITTED,
): (record: ReceivedDelivery, body: Buffer) => ExecJob | undefined {
  const handled = new HandledOnce(max);
  let seq = 0;
  return (record, body) => {
    const event = record.event ?? '';
    if (on.length > 0 && !on.includes(event)) return undefined;
    if (!handled.claim(deliveryKey(record.deliveryId, body))) return undefined;
    const ref = record.payload?.data?.proxyRef;
    return {
      seq: ++seq,
      event,
      proxyRef: typeof ref === 'string' ? ref : undefined,
      deliveryId: record.deliveryId,
      attemptId: record.attemptId,
      test: record.test,
      body,
    };
  };
}

export type ExecOutcome = { exitCode: number } | { signal: string } | { error: string };

export type ExecReport =
  | { type: 'started'; job: ExecJob }
  | { type: 'finished'; job: ExecJob; outcome: ExecOutcome }
  | { type: 'skipped'; job: ExecJob };

export interface ExecRunnerOptions {
  command: string;
  concurrency: number;
  /** The listener's environment; the PROXYCTL_* variables of the event are set over it. */
  env: Env;
  /** Where CMD's stdout and stderr go. */
  output: Writable;
  report(r: ExecReport): void;
  /** Called when a run starts; the returned function when it ends (the in-flight registry). */
  track?: (job: ExecJob) => () => void;
}

export class ExecRunner {
  private readonly queue: ExecJob[] = [];
  private readonly running = new Set<ExecJob>();
  private readonly idleWaiters: (() => void)[] = [];
  private stopped = false;

  constructor(private readonly o: ExecRunnerOptions) {}

  submit(job: ExecJob): void {
    if (this.stopped) {
      this.o.report({ type: 'skipped', job });
      return;
    }
    this.queue.push(job);
    this.pump();
  }

  /** What is running now. */
  active(): ExecJob[] {
    return [...this.running];
  }

  /** Starts nothing more (queued jobs are reported skipped) and resolves once the running ones end. */
  stop(): Promise<void> {
    this.stopped = true;
    for (const job of this.queue.splice(0)) this.o.report({ type: 'skipped', job });
    if (this.running.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    while (!this.stopped && this.running.size < this.o.concurrency && this.queue.length > 0) this.start(this.queue.shift()!);
  }

  private start(job: ExecJob): void {
    this.running.add(job);
    const untrack = this.o.track?.(job);
    this.o.report({ type: 'started', job });
    let settled = false;
    const finish = (outcome: ExecOutcome) => {
      if (settled) return;
      settled = true;
      this.running.delete(job);
      untrack?.();
      this.o.report({ type: 'finished', job, outcome });
      if (this.running.size === 0 && (this.stopped || this.queue.length === 0)) for (const w of this.idleWaiters.splice(0)) w();
      this.pump();
    };
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.o.env)) if (v !== undefined) env[k] = v;
    Object.assign(env, {
      PROXYCTL_EVENT: job.event,
      PROXYCTL_PROXY_REF: job.proxyRef ?? '',
      PROXYCTL_DELIVERY_ID: job.deliveryId ?? '',
      PROXYCTL_EVENT_ID: job.deliveryId ?? '',
      PROXYCTL_ATTEMPT_ID: job.attemptId ?? '',
    });
    // Set only for a test delivery; never inherited from the listener's own environment.
    if (job.test) env.PROXYCTL_TEST = '1';
    else delete env.PROXYCTL_TEST;
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(this.o.command, { shell: true, env, stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (err) {
      finish({ error: (err as Error).message });
      return;
    }
    child.on('error', (err) => finish({ error: err.message }));
    child.on('close', (code, signal) => finish(signal ? { signal } : { exitCode: code ?? 0 }));
    // Piped, not written as it comes: a chatty CMD waits for a slow reader instead of filling memory.
    child.stdout?.pipe(this.o.output, { end: false });
    child.stderr?.pipe(this.o.output, { end: false });
    // A CMD that does not read its stdin closes the pipe early: not an error of the listener.
    child.stdin?.on('error', () => {});
    child.stdin?.end(job.body);
  }
}
