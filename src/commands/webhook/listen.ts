// webhook listen: a local receiver, like `stripe listen`. Verifies every delivery against its raw
// body, prints one line (or one JSON line) per delivery, relays to --forward-to, and runs until
// Ctrl-C or SIGTERM. That is its normal end, so it exits 0 (like `stripe listen` and `proxyctl
// sandbox`); failures to start are their own codes (2 for a busy port or no secret, 3 without a key).
import type { Input } from './listen.command.js';
import { emit, showText, type Result } from '../../kit/action.js';
import { parseInteger } from '../../kit/options.js';
import type { Context } from '../../context/index.js';
import { AuthMissingError, UsageError } from '../../errors.js';
import { escapeControl, escapeDeep, jsonLine, outputMode, paintFor } from '../../output/index.js';
import { EVENT_NAMES, summarizeEvent } from '../../webhooks/events.js';
import { startReceiver, type ReceivedDelivery, type ReceiverRecord } from '../../webhooks/receiver.js';
import type { ExecJob, ExecReport, ExecRunner } from '../../webhooks/exec.js';
import { fixedSecrets, givenSecrets, secretFromApi, type SecretSource } from '../../webhooks/secrets.js';
import { inFlight } from '../../in-flight.js';
import { getWebhook } from '../../api/endpoints.js';
import { enter, entryFromEvent, type Ledger } from '../../ledger/index.js';

type ListenFlags = Input['flags'];

export interface ListenOptions {
  port: number;
  host: string;
  secrets: string[];
  forwardTo: string | undefined;
  /** --exec CMD and the events it runs for (empty: every event). */
  exec: { command: string; on: string[] } | undefined;
}

/** How many --exec commands run at once; later events wait their turn. */
const EXEC_CONCURRENCY = 4;

export function parseListenFlags(flags: ListenFlags): ListenOptions {
  const port = parseInteger(flags.port, '--port', 0, 65535);
  if (flags.secret.some((s) => s === '')) throw new UsageError('--secret must not be empty');
  let forwardTo: string | undefined;
  if (flags.forwardTo !== undefined) {
    let u: URL;
    try {
      u = new URL(flags.forwardTo);
    } catch {
      throw new UsageError(`invalid --forward-to URL "${flags.forwardTo}"`, { hint: 'e.g. http://localhost:3000/hooks' });
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`--forward-to must be http(s), got "${u.protocol}"`);
    forwardTo = u.toString();
  }
  return { port, host: flags.host, secrets: flags.secret, forwardTo, exec: parseExec(flags) };
}

function parseExec(flags: ListenFlags): ListenOptions['exec'] {
  const on = flags.on ?? [];
  if (flags.exec === undefined) {
    if (on.length > 0) throw new UsageError('--on chooses the events for --exec; give --exec CMD too');
    return undefined;
  }
  if (flags.exec.trim() === '') throw new UsageError('--exec needs a command');
  const unknown = on.filter((e) => !(EVENT_NAMES as readonly string[]).includes(e));
  if (unknown.length > 0)
    throw new UsageError(`unknown event ${unknown.map((e) => `"${e}"`).join(', ')} for --on`, {
      hint: `valid events: ${EVENT_NAMES.join(', ')}`,
    });
  return { command: flags.exec, on };
}

/** "dlv_9", or "attempt 5f0c…" when the payload carries no id: the per-attempt id is never passed off as the delivery's. */
function idOf(r: { deliveryId?: string | undefined; attemptId: string | undefined }): string {
  return r.deliveryId ?? (r.attemptId ? `attempt ${r.attemptId}` : '-');
}

/** "#3 unit.down PRX-12 (delivery dlv_9)": one run, escaped (its parts come from the payload). */
function jobName(job: ExecJob): string {
  const id = job.deliveryId ? `delivery ${job.deliveryId}` : idOf(job);
  return escapeControl(`#${job.seq} ${job.event}${job.proxyRef ? ` ${job.proxyRef}` : ''} (${id})`);
}

function describeExec(r: ExecReport, paint: ReturnType<typeof paintFor>): string {
  const name = `exec ${jobName(r.job)}`;
  if (r.type === 'started') return `${name}: started`;
  if (r.type === 'skipped') return `${name}: ${paint.yellow('not run (stopping)')}`;
  const o = r.outcome;
  if ('exitCode' in o) return `${name}: ${o.exitCode === 0 ? paint.green('exit 0') : paint.red(`exit ${o.exitCode}`)}`;
  if ('signal' in o) return `${name}: ${paint.red(`killed by ${o.signal}`)}`;
  return `${name}: ${paint.red(`could not start: ${escapeControl(o.error)}`)}`;
}

interface Exec {
  runner: ExecRunner;
  /** The job an answered delivery becomes, or undefined (another event, or already run). */
  jobFor(record: ReceivedDelivery, body: Buffer): ExecJob | undefined;
}

/** The --exec runner, or undefined without --exec. Runs are registered so a second Ctrl-C names them. */
async function startExec(ctx: Context, exec: ListenOptions['exec']): Promise<Exec | undefined> {
  if (!exec) return undefined;
  const { ExecRunner, jobsFromDeliveries } = await import('../../webhooks/exec.js');
  const paint = paintFor(ctx, 'stderr');
  const runner = new ExecRunner({
    command: exec.command,
    concurrency: EXEC_CONCURRENCY,
    env: ctx.io.env,
    output: ctx.io.stderr,
    track: (job) => inFlight.task(`--exec ${jobName(job)}`),
    report: (r) => {
      if (r.type === 'started') ctx.notice(describeExec(r, paint));
      else ctx.io.stderr.write(`${describeExec(r, paint)}\n`);
    },
  });
  return { runner, jobFor: jobsFromDeliveries(exec.on) };
}

/** The given secrets, or the account's from the API (which needs a key: without one, exit 2 saying what to pass). */
async function resolveSecrets(ctx: Context, flags: string[]): Promise<SecretSource> {
  const given = givenSecrets(flags, ctx.io.env);
  if (given.length > 0) return fixedSecrets(given);
  let api: Awaited<ReturnType<Context['api']>>;
  try {
    api = await ctx.api();
  } catch (err) {
    if (err instanceof AuthMissingError) {
      throw new UsageError('webhook listen needs the webhook secret to verify deliveries', {
        hint: 'pass --secret S (the one proxyctl webhook set printed), or log in (proxyctl login, or PROXYCTL_BASE_URL and PROXYCTL_API_KEY) so listen reads it from the API',
      });
    }
    throw err;
  }
  return secretFromApi(ctx, { read: async () => (await getWebhook(api)).secret });
}

/**
 * --ledger: enters the debit of each verified delivery that reports one (src/ledger's
 * entryFromEvent), each debit once: ids already in the journal or seen here are not written again.
 */
async function startLedger(ctx: Context): Promise<{ add(r: ReceivedDelivery): void; written(): Promise<void> }> {
  let ledger: Ledger;
  try {
    ledger = { ...(await ctx.ledger()), source: 'webhook' };
  } catch (err) {
    if (err instanceof AuthMissingError) {
      throw new UsageError('webhook listen --ledger needs the account: the ledger is kept per account', {
        hint: 'log in (proxyctl login, or PROXYCTL_BASE_URL and PROXYCTL_API_KEY), or leave out --ledger',
      });
    }
    throw err;
  }
  const known = await ledger.journal.ids();
  // One write at a time, in arrival order; stopping waits for the last.
  let writes = Promise.resolve();
  return {
    add(r) {
      const entry = r.test ? undefined : entryFromEvent(ledger, r.payload);
      if (!entry || known.has(entry.id)) return;
      known.add(entry.id);
      writes = writes.then(() => enter(ledger, [entry]));
    },
    written: () => writes,
  };
}

export function describeRecord(r: ReceiverRecord, paint: ReturnType<typeof paintFor>): string {
  const time = paint.dim(r.receivedAt.slice(11, 19));
  if (r.type === 'rejected') {
    return [time, paint.red(`✗ ${r.status}`), r.event ?? '-', idOf(r), paint.red(`rejected: ${r.reason}`)].join('  ');
  }
  const parts = [time, paint.green(`✓ ${r.status}`), r.event ?? '-', idOf(r), summarizeEvent(r.payload ?? {})];
  if (r.redelivery) parts.push(paint.yellow(`redelivery #${r.seen - 1} of ${r.deliveryId ?? 'this delivery'}`));
  if (r.forward) {
    const f = r.forward;
    parts.push(
      f.status !== undefined
        ? `→ ${f.status >= 200 && f.status < 300 ? paint.green(String(f.status)) : paint.red(String(f.status))} (${f.ms}ms)`
        : paint.red(`→ failed: ${f.error}`),
    );
  }
  return parts.join('  ');
}

export default async function handler({ flags, ctx }: Input): Promise<Result> {
  const opts = parseListenFlags(flags);
  const secrets = await resolveSecrets(ctx, opts.secrets);
  const jsonl = outputMode(ctx) === 'jsonl';
  const paint = paintFor(ctx);
  let received = 0;
  let rejected = 0;
  const exec = await startExec(ctx, opts.exec);
  const toLedger = flags.ledger ? await startLedger(ctx) : undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  try {
    receiver = await startReceiver({
      host: opts.host,
      port: opts.port,
      secrets: secrets.current,
      refreshSecrets: secrets.refresh,
      forwardTo: opts.forwardTo,
      now: () => ctx.now(),
      onRecord: (r) => {
        if (r.type === 'delivery') {
          received += 1;
          toLedger?.add(r);
        } else rejected += 1;
        // Text is written before emit's first await, so lines keep the order deliveries arrived in.
        void emit(ctx, showText(jsonl ? jsonLine(ctx, r) : describeRecord(escapeDeep(r), paint)));
      },
      onAnswered:
        exec &&
        ((record, body) => {
          const job = exec.jobFor(record, body);
          if (job) exec.runner.submit(job);
        }),
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new UsageError(`port ${opts.port} is already in use on ${opts.host}`, {
        hint: 'pick another with --port N (0: any free port)',
      });
    if (code === 'EACCES' || code === 'EADDRNOTAVAIL') throw new UsageError(`cannot listen on ${opts.host}:${opts.port} (${code})`);
    throw err;
  }
  // The address is the one thing a user must see, so it is printed even with --quiet.
  const count = secrets.current().length;
  const how = secrets.refresh ? 'secret from the API' : `${count} secret${count > 1 ? 's' : ''}`;
  ctx.io.stderr.write(`Listening for webhook deliveries on ${receiver.url} (${how})\n`);
  ctx.notice(`Point the API at it:  proxyctl webhook set ${receiver.url}`);
  if (opts.forwardTo) ctx.notice(`Relaying valid deliveries to ${opts.forwardTo}`);
  if (opts.exec)
    ctx.notice(escapeControl(`Running for ${opts.exec.on.length ? opts.exec.on.join(', ') : 'every event'}: ${opts.exec.command}`));
  if (toLedger) ctx.notice('Entering the debits of unit.created and unit.extended deliveries in the ledger (proxyctl spend).');
  ctx.notice('Ctrl-C to stop.');
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) return resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  const running = exec?.runner.active() ?? [];
  if (running.length > 0)
    ctx.io.stderr.write(
      `waiting for ${running.length} running command${running.length === 1 ? '' : 's'} (${running.map(jobName).join(', ')}); interrupt again to stop waiting\n`,
    );
  // Stop starting commands first: deliveries answered while the receiver closes start none.
  const stopping = exec?.runner.stop();
  await receiver.close();
  await stopping;
  await toLedger?.written();
  ctx.notice(`Stopped: ${received} deliver${received === 1 ? 'y' : 'ies'} received, ${rejected} rejected.`);
  return 0;
}
