// `proxyctl sandbox`: starts the server, prints how to reach it, serves until Ctrl-C/SIGTERM.
import type { Input } from './serve.command.js';
import { emit, showText, type Result } from '../../kit/action.js';
import { UsageError } from '../../errors.js';
import { parseInteger } from '../../kit/options.js';
import type { SandboxOptions } from '../../sandbox/index.js';
import { MAX_TIME_SCALE } from '../../sandbox/clock.js';

type ServeFlags = Input['flags'];

function number(flag: string, raw: string, check: (n: number) => boolean, rule: string): number {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || !check(n)) throw new UsageError(`--${flag} must be ${rule}, got "${raw}"`);
  return n;
}

export function parseServeFlags(f: ServeFlags, env: Readonly<Record<string, string | undefined>>): SandboxOptions {
  return {
    host: f.host,
    port: parseInteger(f.port, '--port', 0, 65535),
    stateFile: f.state,
    apiKey: f.apiKey ?? (env.PROXYCTL_SANDBOX_API_KEY || undefined),
    disabledApiKey: f.disabledApiKey ?? (env.PROXYCTL_SANDBOX_DISABLED_API_KEY || undefined),
    balance: number('balance', f.balance, (n) => n >= 0, 'a number >= 0'),
    discountPercent: number('discount', f.discount, (n) => n >= 0 && n < 100, 'a percentage in [0, 100)'),
    seed: parseInteger(f.seed, '--seed', Number.MIN_SAFE_INTEGER),
    rateLimit: parseInteger(f.rateLimit, '--rate-limit', 1),
    uptimeRateLimit: parseInteger(f.uptimeRateLimit, '--uptime-rate-limit', 1),
    rateWindowSeconds: number('rate-window', f.rateWindow, (n) => n > 0, 'a number of seconds > 0'),
    timeScale: number('time-scale', f.timeScale, (n) => n > 0 && n <= MAX_TIME_SCALE, `a number > 0 and at most ${MAX_TIME_SCALE}`),
    failPool: f.failPool,
    failureRate: number('failure-rate', f.failureRate, (n) => n >= 0 && n <= 1, 'a number between 0 and 1'),
    balanceLowThreshold: number('balance-low-threshold', f.balanceLowThreshold, (n) => n >= 0, 'a number >= 0'),
    deliveryTimeoutMs: number('delivery-timeout', f.deliveryTimeout, (n) => n > 0, 'a number of milliseconds > 0'),
    engineDelayMs: number('engine-delay', f.engineDelay, (n) => n >= 0, 'a number of milliseconds >= 0'),
    altPaths: f.altPaths === true,
    proxies: f.proxies !== false,
    maxProxies: parseInteger(f.maxProxies, '--max-proxies', 0),
  };
}

export default async function handler({ flags, ctx }: Input): Promise<Result> {
  const opts = parseServeFlags(flags, ctx.io.env);
  const { startSandbox } = await import('../../sandbox/index.js');
  let sb: Awaited<ReturnType<typeof startSandbox>>;
  try {
    // The sandbox never touches `process`: its own faults are reported on this command's stderr.
    sb = await startSandbox({ ...opts, log: (line) => ctx.io.stderr.write(`${line}\n`) });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'EADDRINUSE')
      throw new UsageError(`port ${opts.port} is already in use`, { hint: 'pick another with --port, or --port 0 for a free one' });
    if (e instanceof RangeError) throw new UsageError(e.message);
    throw e;
  }
  const { baseUrl, apiKey, disabledApiKey } = sb;
  if (ctx.globals.output === 'json') {
    await emit(ctx, showText(JSON.stringify({ baseUrl, apiKey, disabledApiKey })));
  } else {
    await emit(
      ctx,
      showText(
        `Sandbox API listening on ${baseUrl}\n` +
          `  main key:             ${apiKey}\n` +
          `  reseller-disabled key: ${disabledApiKey}\n` +
          `  OpenAPI description:  ${baseUrl}/api/reseller/v1/openapi.json\n` +
          `  echo target:          ${baseUrl}/echo\n` +
          `  unit proxies:         ${opts.proxies ? 'each ACTIVE unit listens on loopback at its ip:port' : 'off (--no-proxies)'}\n\n` +
          `export PROXYCTL_BASE_URL=${baseUrl} PROXYCTL_API_KEY=${apiKey}\n`,
      ),
    );
    ctx.notice(
      opts.stateFile
        ? `State persisted to ${opts.stateFile}. Ctrl-C to stop.`
        : 'State is in memory only (use --state FILE to keep it). Ctrl-C to stop.',
    );
  }
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await sb.close();
  ctx.notice('Sandbox stopped.');
  return 0;
}
