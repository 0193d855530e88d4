// Completion scripts are generated from the live commander tree, so they never drift from the
// commands that actually exist.
import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import type { Input } from './print.command.js';

interface Node {
  path: string[];
  subcommands: string[];
  flags: string[];
  /** Flags that take a value, with the allowed values when the option declares them. */
  valueFlags?: { names: string[]; choices: string[] | undefined }[];
}

function walk(cmd: Command, path: string[], out: Node[]): void {
  const flags = cmd.options.flatMap((o) => [o.long, o.short].filter((f): f is string => !!f));
  const valueFlags = cmd.options
    .filter((o) => o.required || o.optional)
    .map((o) => ({ names: [o.long, o.short].filter((f): f is string => !!f), choices: o.argChoices }));
  // Arguments with a fixed set of values (completion bash|zsh|fish) complete like subcommands.
  const argWords = cmd.registeredArguments.flatMap((a) => a.argChoices ?? []);
  out.push({ path, subcommands: [...cmd.commands.map((c) => c.name()), ...argWords], flags, valueFlags });
  for (const sub of cmd.commands) walk(sub, [...path, sub.name()], out);
}

function rootOf(cmd: Command): Command {
  let c = cmd;
  while (c.parent) c = c.parent;
  return c;
}

export function bashScript(nodes: Node[], globals: string[]): string {
  const cases = nodes
    .map((n) => `    "${n.path.join(' ')}") words="${[...n.subcommands, ...n.flags, ...globals].join(' ')}" ;;`)
    .join('\n');
  // A flag's value (--profile work, -o json) and positional arguments (pools get US-12) are not
  // command names: the walk skips them, so completion keeps working after them.
  const valueFlags = nodes.flatMap((n) => n.valueFlags ?? []);
  const withChoices = valueFlags.filter((v) => v.choices?.length);
  const plain = [...new Set(valueFlags.filter((v) => !v.choices?.length).flatMap((v) => v.names))];
  const choiceCases = [...new Map(withChoices.map((v) => [v.names.join('|'), v.choices!.join(' ')])).entries()]
    .map(([names, words]) => `    ${names}) COMPREPLY=( $(compgen -W "${words}" -- "$cur") ); return ;;`)
    .join('\n');
  const allValueFlags = [...new Set(valueFlags.flatMap((v) => v.names))].join('|');
  const known = nodes.map((n) => n.path.join(' ')).join('|');
  return `# proxyctl bash completion
_proxyctl() {
  local cur prev path="" w i skip=0
  local known="|${known}|"
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  case "$prev" in
${choiceCases}
${plain.length ? `    ${plain.join('|')}) COMPREPLY=( $(compgen -f -- "$cur") ); return ;;` : ''}
  esac
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    if ((skip)); then skip=0; continue; fi
    case "$w" in
      ${allValueFlags || '--'}) skip=1; continue ;;
      -*) continue ;;
    esac
    if [[ -z "$path" ]]; then w="$w"; else w="$path $w"; fi
    [[ "$known" == *"|$w|"* ]] && path="$w"
  done
  local words=""
  case "$path" in
${cases}
  esac
  COMPREPLY=( $(compgen -W "$words" -- "$cur") )
}
complete -F _proxyctl proxyctl
`;
}

export function zshScript(nodes: Node[], globals: string[]): string {
  return `#compdef proxyctl
# proxyctl zsh completion (uses bash completion emulation)
autoload -U +X bashcompinit && bashcompinit
${bashScript(nodes, globals)}`;
}

export function fishScript(nodes: Node[], globals: string[]): string {
  const lines = ['# proxyctl fish completion', 'complete -c proxyctl -f'];
  for (const g of globals.filter((f) => f.startsWith('--'))) {
    lines.push(`complete -c proxyctl -l ${g.slice(2)}`);
  }
  for (const n of nodes) {
    const cond = n.path.length === 0 ? '__fish_use_subcommand' : `__fish_seen_subcommand_from ${n.path[n.path.length - 1]}`;
    for (const s of n.subcommands) lines.push(`complete -c proxyctl -n '${cond}' -a ${s}`);
    if (n.path.length > 0) {
      for (const f of n.flags.filter((x) => x.startsWith('--'))) lines.push(`complete -c proxyctl -n '${cond}' -l ${f.slice(2)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export default async function print({ args: [shell], ctx, command }: Input): Promise<number> {
  const root = rootOf(command);
  const nodes: Node[] = [];
  walk(root, [], nodes);
  const [top, ...rest] = nodes as [Node, ...Node[]];
  // Global options are offered everywhere, so they are listed once rather than per node.
  const globals = top.flags;
  const all = [{ ...top, flags: [] }, ...rest];
  const script = shell === 'bash' ? bashScript(all, globals) : shell === 'zsh' ? zshScript(all, globals) : fishScript(all, globals);
  ctx.io.stdout.write(script);
  return 0;
}
