// Where each agent host keeps its MCP servers, and the merge that adds proxyctl's entry to that
// file: every other server and setting is kept, the entry names a stored profile (its key stays
// in proxyctl's config), and a file that cannot be read as its format is refused, not replaced.
// JSON files are read and edited as JSONC (jsonc-parser, the parser VS Code itself uses): the
// comments and trailing commas VS Code accepts in its mcp.json are kept, only the entry changes.
import { join } from 'node:path';
import type { Env } from '../io.js';
import { UsageError } from '../errors.js';
import type { ParseError } from 'jsonc-parser';

export const CLIENTS = ['claude-code', 'claude-desktop', 'cursor', 'vscode', 'codex'] as const;
export type ClientName = (typeof CLIENTS)[number];

/** Where the user's files are: home, OS, environment (XDG_CONFIG_HOME, APPDATA, CODEX_HOME). */
export interface Where {
  home: string;
  platform: string;
  env: Env;
}

interface ClientFile {
  file: string;
  format: 'json' | 'toml';
  /** The object (JSON) or table prefix (TOML) holding the servers. */
  key: string;
  /** The client wants `"type": "stdio"` on a command entry. */
  typed: boolean;
}

/** The user's application-settings folder, as Electron apps (Claude, VS Code) use it. */
function appData(w: Where): string {
  if (w.platform === 'darwin') return join(w.home, 'Library', 'Application Support');
  if (w.platform === 'win32') return w.env.APPDATA || join(w.home, 'AppData', 'Roaming');
  return w.env.XDG_CONFIG_HOME || join(w.home, '.config');
}

/** The user-level configuration file of each client (not a project's). */
export function clientFile(client: ClientName, w: Where): ClientFile {
  switch (client) {
    case 'claude-code':
      return { file: join(w.home, '.claude.json'), format: 'json', key: 'mcpServers', typed: true };
    case 'claude-desktop':
      return { file: join(appData(w), 'Claude', 'claude_desktop_config.json'), format: 'json', key: 'mcpServers', typed: false };
    case 'cursor':
      return { file: join(w.home, '.cursor', 'mcp.json'), format: 'json', key: 'mcpServers', typed: false };
    case 'vscode':
      return { file: join(appData(w), 'Code', 'User', 'mcp.json'), format: 'json', key: 'servers', typed: true };
    case 'codex':
      return { file: join(w.env.CODEX_HOME || join(w.home, '.codex'), 'config.toml'), format: 'toml', key: 'mcp_servers', typed: false };
  }
}

export interface Install {
  client: ClientName;
  file: string;
  /** The server's name in the client's list. */
  server: string;
  command: string;
  args: string[];
  /** Variables the client starts it with (PROXYCTL_CONFIG_DIR, when proxyctl's config is not in the OS dirs). */
  env: Record<string, string> | undefined;
  /** Whether an entry of that name was there (and is replaced). */
  replaces: boolean;
  /** The client's other servers, kept as they are. */
  keeps: string[];
  /** The file's new text. */
  text: string;
}

/** The client's file with proxyctl's entry added or replaced; `current` is its text, undefined when absent. */
export async function planInstall(
  client: ClientName,
  w: Where,
  server: string,
  command: string,
  args: string[],
  env: Record<string, string> | undefined,
  current: string | undefined,
): Promise<Install> {
  const where = clientFile(client, w);
  const base = { client, file: where.file, server, command, args, env };
  if (where.format === 'toml') return { ...base, ...mergeToml(where.key, server, command, args, env, current) };
  // A CommonJS (UMD) package: its functions are on the default export when imported.
  const jsonc = await import('jsonc-parser');
  const { parse, modify, applyEdits, printParseErrorCode } = jsonc.default ?? jsonc;
  const text = current === undefined || current.trim() === '' ? '{}' : current;
  const errors: ParseError[] = [];
  const doc: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const [first] = errors;
    throw new UsageError(
      `${where.file} is not JSON (${printParseErrorCode(first!.error)} at offset ${first!.offset}; comments and trailing commas are fine); nothing was written`,
      { code: 'client_config_unreadable', hint: 'fix the file (or move it aside) and run the command again' },
    );
  }
  const servers = isObject(doc) ? (doc[where.key] ?? {}) : undefined;
  if (!isObject(doc) || !isObject(servers))
    throw new UsageError(`${where.file} does not hold a "${where.key}" object where ${client} keeps its servers; nothing was written`, {
      code: 'client_config_unreadable',
    });
  const entry = { ...(where.typed ? { type: 'stdio' } : {}), command, args, ...(env ? { env } : {}) };
  // An edit of the entry alone: every other byte (comments, trailing commas, layout) stays.
  const edits = modify(text, [where.key, server], entry, { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } });
  const edited = applyEdits(text, edits);
  return {
    ...base,
    replaces: server in servers,
    keeps: Object.keys(servers).filter((k) => k !== server),
    text: edited.endsWith('\n') ? edited : `${edited}\n`,
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A TOML basic string (JSON's escapes are TOML's). */
const tomlString = (s: string) => JSON.stringify(s);

/**
 * Codex's config.toml, edited as text (no TOML library for one table): the `[key.server]` table
 * and its subtables are replaced, or the table is appended; every other line is kept.
 */
function mergeToml(
  key: string,
  server: string,
  command: string,
  args: string[],
  env: Record<string, string> | undefined,
  current: string | undefined,
) {
  const lines = (current ?? '').split('\n');
  const header = (l: string) => /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/.exec(l)?.[1];
  const ours = (name: string | undefined) => name !== undefined && (name === `${key}.${server}` || name.startsWith(`${key}.${server}.`));
  const block = [
    `[${key}.${server}]`,
    `command = ${tomlString(command)}`,
    `args = [${args.map(tomlString).join(', ')}]`,
    ...(env
      ? [
          `env = { ${Object.entries(env)
            .map(([k, v]) => `${tomlString(k)} = ${tomlString(v)}`)
            .join(', ')} }`,
        ]
      : []),
  ];
  const keeps = new Set<string>();
  const out: string[] = [];
  let inOurs = false;
  let replaced = false;
  for (const line of lines) {
    const name = header(line);
    if (name !== undefined) {
      inOurs = ours(name);
      const other = name.startsWith(`${key}.`) ? name.slice(key.length + 1).split('.')[0] : undefined;
      if (other && other !== server) keeps.add(other);
      if (inOurs && !replaced) {
        out.push(...block, '');
        replaced = true;
      }
    }
    if (!inOurs) out.push(line);
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  if (!replaced) out.push(...(out.length > 0 ? [''] : []), ...block);
  return { replaces: replaced, keeps: [...keeps], text: `${out.join('\n')}\n` };
}
