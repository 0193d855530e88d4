// Completion scripts are generated from the live commander tree, so they never drift from the
// commands that actually exist.
import type { Command } from 'commander';
import type { HandlerInput } from '../action.js';

interface Node {
  path: string[];
  subcommands: string[];
  flags: string[];
}

function walk(cmd: Command, path: string[], out: Node[]): void {
  const flags = cmd.options.flatMap((o) => [o.long, o.short].filter((f): f is string => !!f));
  out.push({ path, subcommands: cmd.commands.map((c) => c.name()), flags });
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
  return `# proxyctl bash completion
_proxyctl() {
  local cur path="" w i
  cur="\${COMP_WORDS[COMP_CWORD]}"
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    [[ "$w" == -* ]] && continue
    if [[ -z "$path" ]]; then path="$w"; else path="$path $w"; fi
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

export default async function print({ args, ctx, command }: HandlerInput): Promise<number> {
  const shell = args[0] as 'bash' | 'zsh' | 'fish';
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
