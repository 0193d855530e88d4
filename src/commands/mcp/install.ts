// `proxyctl mcp install --client C [-- flags]`: shows the entry it adds to the client's MCP
// servers (and which of the client's own it keeps), then writes the file unless --dry-run. The
// entry starts `proxyctl --profile NAME mcp …`: the client is given a profile's name, and the key
// stays in proxyctl's config.
import { mkdir, readFile } from 'node:fs/promises';
import { homedir, platform } from 'node:os';
import { dirname, resolve } from 'node:path';
import { nonEmpty } from '../../globals.js';
import { emit, finished, show, type Result } from '../../kit/action.js';
import type { Input } from './install.command.js';
import { profileInUse } from '../../context/credentials.js';
import { AuthMissingError, UsageError } from '../../errors.js';
import { clientFile, planInstall, type ClientName, type Install } from '../../mcp/install.js';
import { serverOptions } from './server-flags.js';

/** The flags after --, checked as `proxyctl mcp` checks its own, so the client is never given a server that will not start. */
async function checkServerFlags(given: string[], warn: (message: string) => void): Promise<void> {
  const serve = (await import('./serve.command.js')).default
    .command()
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  try {
    serve.parse(given, { from: 'user' });
  } catch (err) {
    // Commander's message may carry its suggestion on a second line ("(Did you mean --budget?)"):
    // the error line gets the first line, the hint the suggestion, so no newline is shown escaped.
    const [first, ...rest] = (err as Error).message.replace(/^error: /, '').split('\n');
    const suggestion = rest
      .join(' ')
      .trim()
      .replace(/^\((.*)\)$/, '$1');
    throw new UsageError(`after --, give the flags of proxyctl mcp: ${first}`, {
      hint: `${suggestion ? `${suggestion} ` : ''}e.g. proxyctl mcp install --client cursor -- --allow-spend --budget 50 (see proxyctl mcp --help)`,
    });
  }
  if (serve.args.length > 0) throw new UsageError(`proxyctl mcp takes no arguments, got "${serve.args.join(' ')}" after --`);
  serverOptions(serve.opts(), warn);
}

const view = {
  columns: [
    { header: 'client', value: (r: Row) => r.client },
    { header: 'file', value: (r: Row) => r.file },
    { header: 'server', value: (r: Row) => r.server },
    {
      header: 'command',
      value: (r: Row) => [...Object.entries(r.env ?? {}).map(([k, v]) => `${k}=${v}`), r.command, ...r.args].join(' '),
    },
    { header: 'change', value: (r: Row) => (r.replaces ? `replaces its ${r.server} entry` : 'adds it') },
    { header: 'keeps', value: (r: Row) => (r.keeps.length ? r.keeps.join(', ') : '-') },
    { header: 'writes', value: (r: Row) => (r.dryRun ? 'nothing (dry run)' : 'the file') },
  ],
  fields: ['client', 'file', 'server', 'command', 'args', 'env', 'replaces', 'keeps', 'dryRun'],
};

type Row = Omit<Install, 'text'> & { dryRun: boolean };

export default async function handler({ args: [given], flags, ctx }: Input): Promise<Result> {
  await checkServerFlags(given, (m) => ctx.warn(m));
  const name = flags.name;
  if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new UsageError(`--name must be letters, digits, - or _, got "${name}"`);
  const store = await ctx.config();
  const profile = profileInUse(ctx, store);
  if (!store.profile(profile))
    throw new AuthMissingError(
      `there is no stored profile "${profile}" for the client to start proxyctl mcp with (its config names a profile, never a key)`,
      `run proxyctl${ctx.globals.profile ? ` --profile ${profile}` : ''} login first`,
    );
  const client = flags.client as ClientName;
  const where = { home: ctx.io.env.HOME || ctx.io.env.USERPROFILE || homedir(), platform: platform(), env: ctx.io.env };
  const { file } = clientFile(client, where);
  const current = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw new UsageError(`cannot read ${file}: ${err.message}; nothing was written`);
  });
  // The client starts proxyctl with its own environment: a config dir set here must go with the
  // entry, or the server it starts looks in the OS dirs and finds no profile.
  const configDir = nonEmpty(ctx.io.env.PROXYCTL_CONFIG_DIR);
  const env = configDir ? { PROXYCTL_CONFIG_DIR: resolve(configDir) } : undefined;
  const { text, ...plan } = await planInstall(client, where, name, 'proxyctl', ['--profile', profile, 'mcp', ...given], env, current);
  const dryRun = flags.dryRun === true;
  await emit(ctx, show<Row>({ ...plan, dryRun }, view));
  if (dryRun) {
    ctx.notice('dry run: nothing was written');
    return finished(ctx);
  }
  await mkdir(dirname(file), { recursive: true });
  const { default: writeFileAtomic } = await import('write-file-atomic');
  await writeFileAtomic(file, text);
  ctx.notice(`wrote ${file}; restart ${client} (or reload its MCP servers) to start proxyctl mcp`);
  return finished(ctx);
}
