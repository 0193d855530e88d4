// `proxyctl __complete <words typed so far…> <word being typed>`: the hidden entry point the shell
// scripts in completions/ call on TAB, after cobra's. It walks the real commander tree (so every
// command, alias and flag completes, including ones added later) and prints one candidate per line,
// `value<TAB>description`, then `:<directive>` (Directive below). Values come from fixed sets, the
// values cache that commands fill as they run, and the config file's profile names: never from the
// network, and never an API key. It loads no HTTP client (test/e2e/module-loading.test.ts).
import type { CommandUnknownOpts as Cmd, Option } from '@commander-js/extra-typings';
import type { IO } from '../../io.js';
import { ARG_VALUES, FLAG_VALUES, NOTHING, takesNumber, type Source } from './values.js';
import { TOPICS } from '../help/help.command.js';

/** The last line's bits, as cobra defines them (the scripts read them the same way). */
export const Directive = {
  /** Something went wrong: offer nothing. */
  error: 1,
  /** Do not add a space after the candidate. */
  noSpace: 2,
  /** Offer no file names when there is no candidate. */
  noFileComp: 4,
  /** Show the candidates in the order given (periods: 3h 12h 24h 7d 30d), not sorted by the shell. */
  keepOrder: 32,
} as const;

interface Hidden {
  _hidden?: boolean;
  _defaultCommandName?: string | null;
}

interface Candidate {
  value: string;
  description?: string | undefined;
  /** A value (pool id, country, status) matches in any case: `us-` finds US-12. Commands and flags do not. */
  anyCase?: boolean;
}

const oneLine = (s: string | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();

function subcommands(cmd: Cmd): Cmd[] {
  return cmd.commands.filter((c) => !(c as unknown as Hidden)._hidden);
}

function findSub(cmd: Cmd, word: string): Cmd | undefined {
  return cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
}

function defaultSub(cmd: Cmd): Cmd | undefined {
  const name = (cmd as unknown as Hidden)._defaultCommandName;
  return name ? findSub(cmd, name) : undefined;
}

/** The flags a command accepts: its own, its default subcommand's, then every ancestor's (the globals). */
function flagsOf(cmd: Cmd): Option[] {
  const out: Option[] = [...(cmd.options as Option[]), ...((defaultSub(cmd)?.options ?? []) as Option[])];
  // --version is the program's alone; the other globals are accepted after any command.
  for (let c = cmd.parent; c; c = c.parent) out.push(...(c.options as Option[]).filter((o) => o.long !== '--version'));
  return out.filter((o) => !o.hidden);
}

function findFlag(cmd: Cmd, word: string): Option | undefined {
  return flagsOf(cmd).find((o) => o.long === word || o.short === word);
}

function pathOf(cmd: Cmd): string {
  const names: string[] = [];
  for (let c: Cmd | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

function flagSource(cmd: Cmd, flag: Option): Source | undefined {
  if (flag.argChoices?.length) return { fixed: flag.argChoices };
  const long = flag.long ?? '';
  return FLAG_VALUES[`${pathOf(cmd)} ${long}`] ?? FLAG_VALUES[long] ?? (takesNumber(flag.flags) ? NOTHING : undefined);
}

function argSource(cmd: Cmd, index: number): Source | undefined {
  const args = cmd.registeredArguments;
  const last = args.at(-1);
  const arg = args[index] ?? (last?.variadic ? last : undefined);
  if (!arg) return undefined;
  if (arg.argChoices?.length) return { fixed: arg.argChoices };
  return ARG_VALUES[`${pathOf(cmd)} ${arg.name()}`] ?? ARG_VALUES[arg.name()] ?? (takesNumber(arg.name()) ? NOTHING : undefined);
}

/** What the words typed so far mean: the command reached, the flag awaiting a value, and the account. */
interface Walk {
  cmd: Cmd;
  /** Positional arguments given to `cmd` so far. */
  positional: number;
  /** Those arguments' words. */
  args: string[];
  /** A flag typed last that still needs its value. */
  pending: Option | undefined;
  /** After `--`, everything is an argument. */
  literal: boolean;
  profile: string | undefined;
  baseUrl: string | undefined;
}

function walk(program: Cmd, words: readonly string[]): Walk {
  const w: Walk = { cmd: program, positional: 0, args: [], pending: undefined, literal: false, profile: undefined, baseUrl: undefined };
  const note = (flag: Option | undefined, value: string) => {
    if (flag?.long === '--profile') w.profile = value;
    if (flag?.long === '--base-url') w.baseUrl = value;
  };
  for (const word of words) {
    if (w.pending) {
      note(w.pending, word);
      w.pending = undefined;
      continue;
    }
    if (!w.literal && word === '--') {
      w.literal = true;
      continue;
    }
    if (!w.literal && word.startsWith('-') && word.length > 1) {
      const eq = word.startsWith('--') ? word.indexOf('=') : -1;
      const name = eq > 0 ? word.slice(0, eq) : word;
      // `pools --country US` is the default subcommand's flag (`pools list`); flagsOf has those too.
      const flag = findFlag(w.cmd, name);
      if (eq > 0) note(flag, word.slice(eq + 1));
      else if (flag?.required) w.pending = flag;
      continue;
    }
    const sub = !w.literal && w.positional === 0 ? findSub(w.cmd, word) : undefined;
    if (sub) {
      w.cmd = sub;
      continue;
    }
    const dflt = w.positional === 0 ? defaultSub(w.cmd) : undefined;
    if (dflt) w.cmd = dflt;
    w.positional += 1;
    w.args.push(word);
  }
  return w;
}

/** The values a source offers, read from the command tree, the cache or the config file only. */
async function valuesOf(source: Source, program: Cmd, w: Walk, io: IO, nowMs: number): Promise<Candidate[]> {
  const plain = (values: readonly string[]) => values.map((value) => ({ value }));
  if ('fixed' in source) return plain(source.fixed);
  if ('commands' in source) return commandsUnder(program, w.args);
  const cache = await import('../../config/values-cache.js');
  if ('profiles' in source) return plain(Object.keys((await cache.readProfileNames(io.env)).baseUrls).sort());
  const account = await cache.accountValues(io.env, { profile: w.profile, baseUrl: w.baseUrl }, nowMs);
  if ('cached' in source) return plain(account.values(source.cached));
  // units create/swap --pool: not a pool the catalogue said is not available, nor (swap REF) where
  // the unit already is.
  const ref = source.buyable === 'swap' ? w.args[0] : undefined;
  const own = ref === undefined ? undefined : account.poolOf(ref);
  const unavailable = new Set(account.values('unavailablePools'));
  return plain(account.values('pools').filter((p) => p !== own && !unavailable.has(p)));
}

/** `help <words…>`: the subcommands of the command those words name, and the topics at the top. */
function commandsUnder(program: Cmd, words: readonly string[]): Candidate[] {
  let cmd = program;
  for (const word of words) {
    const sub = findSub(cmd, word);
    if (!sub) return [];
    cmd = sub;
  }
  const list: Candidate[] = subcommands(cmd).map((c) => ({ value: c.name(), description: oneLine(c.description()) }));
  if (cmd === program) for (const [topic, about] of Object.entries(TOPICS)) list.push({ value: topic, description: about });
  return list;
}

async function candidates(
  program: Cmd,
  words: readonly string[],
  io: IO,
  nowMs: number,
): Promise<{ list: Candidate[]; directive: number }> {
  const typed = words.slice(0, -1);
  const partial = words.at(-1) ?? '';
  const w = walk(program, typed);
  const values = async (source: Source | undefined, prefix = ''): Promise<{ list: Candidate[]; directive: number }> => {
    // A value nobody can list (a description, a file): the shell offers file names, as it would without us.
    if (!source) return { list: [], directive: 0 };
    const found = await valuesOf(source, program, w, io, nowMs);
    // Command names (help) match as typed, like any command; values match in any case.
    const anyCase = !('commands' in source);
    const list = found.map((c) => ({ ...c, value: `${prefix}${c.value}`, anyCase }));
    // A fixed set is in its natural order (3h before 12h); cached values are kept newest first anyway.
    return { list, directive: Directive.noFileComp | ('fixed' in source ? Directive.keepOrder : 0) };
  };

  if (w.pending) return values(flagSource(w.cmd, w.pending));
  if (!w.literal && partial.startsWith('--') && partial.includes('=')) {
    const name = partial.slice(0, partial.indexOf('='));
    const flag = findFlag(w.cmd, name);
    return flag?.required || flag?.optional ? values(flagSource(w.cmd, flag), `${name}=`) : { list: [], directive: Directive.noFileComp };
  }
  if (!w.literal && partial.startsWith('-')) {
    const list: Candidate[] = [];
    for (const o of flagsOf(w.cmd)) {
      for (const name of [o.long, partial.startsWith('--') ? undefined : o.short]) {
        if (name) list.push({ value: name, description: oneLine(o.description) });
      }
    }
    list.push({ value: '--help', description: 'show help' });
    return { list, directive: Directive.noFileComp };
  }
  const list: Candidate[] = [];
  if (w.positional === 0 && !w.literal) {
    const subs = subcommands(w.cmd);
    const named = subs.filter((c) => c.name().startsWith(partial));
    // Aliases (ls, buy, rm) are offered when no name fits what was typed.
    const found =
      named.length > 0 ? named.map((c) => ({ c, value: c.name() })) : subs.flatMap((c) => c.aliases().map((value) => ({ c, value })));
    for (const { c, value } of found) list.push({ value, description: oneLine(c.description()) });
  }
  const source = argSource(w.cmd, w.positional);
  const args = source ? await values(source) : undefined;
  if (args) list.push(...args.list);
  const wantsFiles = !source && list.length === 0 && w.cmd.registeredArguments.length > 0;
  return { list, directive: wantsFiles ? 0 : (args?.directive ?? Directive.noFileComp) };
}

/** Prints the candidates that start with the word being typed, then the directive line. Always exit 0. */
export async function complete(program: Cmd, words: readonly string[], io: IO, nowMs: number): Promise<number> {
  const partial = words.at(-1) ?? '';
  let out = '';
  try {
    const { list, directive } = await candidates(program, words.length > 0 ? words : [''], io, nowMs);
    const seen = new Set<string>();
    const lower = partial.toLowerCase();
    for (const { value, description, anyCase } of list) {
      const fits = anyCase ? value.toLowerCase().startsWith(lower) : value.startsWith(partial);
      if (!fits || seen.has(value)) continue;
      seen.add(value);
      out += description ? `${value}\t${description}\n` : `${value}\n`;
    }
    out += `:${directive}\n`;
  } catch {
    out = `:${Directive.error}\n`;
  }
  // Written here, not through emit: TAB runs before and outside the command kit (main.ts), with no
  // Context to emit to, and the candidates are one write the shell script reads whole.
  io.stdout.write(out);
  return 0;
}
