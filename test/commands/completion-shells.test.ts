// TAB in real shells, installed exactly as the README says (its install lines run here in a
// temporary HOME, no root): bash always, on a pty; zsh on a pty and fish through its own
// `complete -C`, where those shells are installed (skipped with the reason otherwise).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasShell, renderScreen, shellEnv, shellOnPty, startKit, type Kit, waitForText } from '../helpers/index.js';
import { EVENT_NAMES } from '../../src/webhooks/events.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BASH_COMPLETION = '/usr/share/bash-completion/bash_completion';

/** The README's install lines for one shell (the block after the completion-install marker). */
function installLines(shell: 'bash' | 'zsh' | 'fish'): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = readme.split('<!-- completion-install')[1]!.split('```sh\n')[1]!.split('```')[0]!;
  let current = '';
  const lines: string[] = [];
  for (const line of block.split('\n')) {
    const heading = /^# (\w+)/.exec(line);
    if (heading) current = heading[1]!;
    else if (current === shell && line.trim() !== '') lines.push(line);
  }
  expect(lines.length).toBeGreaterThan(0);
  return lines;
}

/** A user's environment with the kit's account in it; XDG dirs unset, so ~/.config and ~/.local are used. */
function userEnv(kit: Kit) {
  return shellEnv(kit.home, { PROXYCTL_BASE_URL: kit.sb.baseUrl, PROXYCTL_API_KEY: kit.sb.apiKey, XDG_CONFIG_HOME: undefined });
}

async function install(kit: Kit, shell: 'bash' | 'zsh' | 'fish', lines = installLines(shell)): Promise<void> {
  const r = await execa('bash', ['--norc', '--noprofile', '-euc', lines.join('\n')], {
    env: userEnv(kit),
    extendEnv: false,
    cwd: kit.home.dir,
  });
  expect(r.stderr).toBe('');
}

/**
 * An interactive shell on a pty, prompt "READY> ", in `cwd` (a dir with files in it, so that a
 * completion that wrongly offers file names shows them). `tab(line, …expected)` types `line` (TABs
 * included), waits for each expected text to be drawn, abandons the line and returns what was drawn.
 */
async function onShell(argv: string[], env: Record<string, string | undefined>, cwd = '.') {
  const t = shellOnPty(argv, env);
  // A window big enough that long lists are drawn without a "show all?" question (script(1)'s pty
  // is 0x0), and a prompt quoted so that the echo of this line is not the prompt itself.
  t.key(`cd '${cwd}'; stty cols 200 rows 100; LISTMAX=10000; PS1='RE''ADY> '\n`);
  await waitForText(t, 'READY> ');
  return {
    async tab(line: string, ...expected: string[]): Promise<string> {
      let from = t.screen().length;
      const start = from;
      t.key(line);
      for (const text of expected) {
        await waitForText(t, text, from);
      }
      const drawn = t.screen().slice(start);
      // Ctrl-U empties the line (bash and zsh alike), Enter on the empty line draws a fresh prompt.
      // (Ctrl-C does not always redraw bash's prompt on a pty, so it is not waited for.)
      from = t.screen().length;
      t.key('\x15\r');
      await waitForText(t, 'READY> ', from);
      return drawn;
    },
    /**
     * Types `line` (ending in TABs) and then a marker: the shell reads the marker only after it has
     * drawn what TAB offered, so what was drawn up to the marker is all TAB did.
     */
    async offered(line: string): Promise<string> {
      const drawn = await this.tab(`${line}#END`, '#END');
      return drawn.slice(0, drawn.lastIndexOf('#END'));
    },
    /**
     * The command line as a terminal shows it after `line` and then a marker, "#END" (zsh rewrites
     * a word with cursor moves, so the bytes drawn are not the text shown).
     */
    async reads(line: string): Promise<string> {
      const drawn = await this.tab(`${line}#END`, '#END');
      return (await renderScreen(drawn, 200)).map((r) => r.text).join('\n');
    },
    async close() {
      t.key('exit\n');
      await t.child;
    },
  };
}

let kit: Kit;
let poolIds: string[];
/** A dir with files in it, where the shells run: a completion that offers file names shows them. */
let work: string;
/** A pool id no other id starts with, and its lower case: `--pool <lower>TAB` completes to it alone. */
let onePool: string;
let lowered: string;
beforeAll(async () => {
  kit = await startKit();
  // Two profiles, and the account's pools in the values cache, as after a `proxyctl pools`.
  mkdirSync(kit.home.configDir, { recursive: true });
  writeFileSync(
    join(kit.home.configDir, 'config.json'),
    JSON.stringify({ currentProfile: 'work', profiles: { work: { baseUrl: kit.sb.baseUrl }, play: { baseUrl: 'http://127.0.0.1:9' } } }),
    { mode: 0o600 },
  );
  expect((await kit.run(['pools'])).exitCode).toBe(0);
  // What `units create --pool` offers: the pools listed as available (an unavailable one cannot be bought).
  poolIds = (await kit.api<{ data: { poolId: string; available: boolean }[] }>('/pools')).data
    .filter((p) => p.available)
    .map((p) => p.poolId);
  onePool = poolIds.find((p) => !poolIds.some((q) => q !== p && q.startsWith(p)) && p !== p.toLowerCase())!;
  lowered = onePool.toLowerCase();
  work = join(kit.home.dir, 'work');
  mkdirSync(work);
  for (const f of ['count-a.txt', 'count-b.txt']) writeFileSync(join(work, f), '');
}, 300_000);

/** How every shell must list the periods: in their natural order, not sorted as text. */
const PERIODS_IN_ORDER = /3h\s+12h\s+24h\s+7d\s+30d/;
afterAll(() => kit.close());

describe('bash', { timeout: 300_000 }, () => {
  it('the README lines install it for a user without root: ~/.bashrc, and bash-completion’s loader when present', async () => {
    await install(kit, 'bash');
    const installed = join(kit.home.dir, '.local/share/bash-completion/completions/proxyctl');
    expect(readFileSync(installed, 'utf8')).toBe(readFileSync(join(ROOT, 'completions/proxyctl.bash'), 'utf8'));
    const viaRc = await execa('bash', ['-ic', 'complete -p proxyctl'], { env: userEnv(kit), extendEnv: false, reject: false });
    expect(viaRc.stdout).toBe('complete -F _proxyctl proxyctl');
    if (existsSync(BASH_COMPLETION)) {
      const viaLoader = await execa(
        'bash',
        ['--norc', '--noprofile', '-c', `source ${BASH_COMPLETION}; __load_completion proxyctl; complete -p proxyctl`],
        { env: userEnv(kit), extendEnv: false, reject: false },
      );
      expect(viaLoader.stdout).toBe('complete -F _proxyctl proxyctl');
    }
  });

  it('TAB on a terminal completes verbs, aliases, fixed values, pool ids from the cache and profile names', async () => {
    const sh = await onShell(['bash', '--noprofile', '-i'], userEnv(kit));
    try {
      await sh.tab('proxyctl units l\t', 'proxyctl units list ');
      await sh.tab('proxyctl units bu\t', 'proxyctl units buy ');
      await sh.tab('proxyctl units buy --per\t', 'units buy --period ');
      await sh.tab('proxyctl units create --period \t\t', '12h', '24h', '30d', '3h', '7d');
      await sh.tab('proxyctl units create --pool \t\t', ...poolIds);
      await sh.tab('proxyctl profiles use \t\t', 'play', 'work');
      await sh.tab('proxyctl profiles use wo\t', 'profiles use work ');
    } finally {
      await sh.close();
    }
  });

  it('TAB on a terminal: help’s commands, nothing for numbers, listen’s events, lower-case pool ids, periods in order', async () => {
    const sh = await onShell(['bash', '--noprofile', '-i'], userEnv(kit), work);
    try {
      await sh.tab('proxyctl help uni\t', 'proxyctl help units ');
      await sh.tab('proxyctl help units cr\t', 'proxyctl help units create ');
      await sh.tab('proxyctl help env\t', 'proxyctl help environment ');
      // The files in the dir prove bash was asked for file names and given none.
      expect(await sh.offered('proxyctl webhook set \t\t')).toContain('count-');
      expect(await sh.offered('proxyctl units create --count \t\t')).not.toContain('count-');
      expect(await sh.offered('proxyctl units extend --expiring-within 24 --max-spend \t\t')).not.toContain('count-');
      await sh.tab('proxyctl webhook listen --on unit.cr\t', 'listen --on unit.created ');
      expect(await sh.reads(`proxyctl units create --pool ${lowered}\t`)).toContain(`create --pool ${onePool} #END`);
      expect(await sh.tab('proxyctl units create --period \t\t', '3h', '30d')).toMatch(PERIODS_IN_ORDER);
    } finally {
      await sh.close();
    }
  });
});

describe.skipIf(!(await hasShell('zsh')))('zsh (installed here)', { timeout: 300_000 }, () => {
  it('the README lines install it; TAB on a terminal completes verbs, aliases, values and pool ids', async () => {
    await install(kit, 'zsh');
    expect(readFileSync(join(kit.home.dir, '.zsh/completions/_proxyctl'), 'utf8')).toBe(
      readFileSync(join(ROOT, 'completions/_proxyctl'), 'utf8'),
    );
    const sh = await onShell(['zsh', '-i'], { ...userEnv(kit), ZDOTDIR: kit.home.dir });
    try {
      await sh.tab('proxyctl units l\t', 'proxyctl units list');
      await sh.tab('proxyctl units bu\t', 'proxyctl units buy');
      await sh.tab('proxyctl units create --period \t', '12h', '30d', '7d');
      await sh.tab('proxyctl units create --pool \t', ...poolIds.slice(0, 3));
      await sh.tab('proxyctl profiles use wo\t', 'profiles use work');
    } finally {
      await sh.close();
    }
  });

  it('TAB on a terminal: help’s commands, nothing for numbers, listen’s events, lower-case pool ids, periods in order', async () => {
    const sh = await onShell(['zsh', '-i'], { ...userEnv(kit), ZDOTDIR: kit.home.dir }, work);
    try {
      await sh.tab('proxyctl help uni\t', 'proxyctl help units');
      await sh.tab('proxyctl help units cr\t', 'proxyctl help units create');
      expect(await sh.offered('proxyctl webhook set \t')).toContain('count-');
      expect(await sh.offered('proxyctl units create --count \t')).not.toContain('count-');
      expect(await sh.offered('proxyctl units extend --expiring-within 24 --max-spend \t')).not.toContain('count-');
      await sh.tab('proxyctl webhook listen --on unit.cr\t', 'listen --on unit.created');
      expect(await sh.reads(`proxyctl units create --pool ${lowered}\t`)).toContain(`create --pool ${onePool} #END`);
      expect(await sh.tab('proxyctl units create --period \t', '3h', '30d')).toMatch(PERIODS_IN_ORDER);
    } finally {
      await sh.close();
    }
  });
});
if (!(await hasShell('zsh'))) describe.skip('zsh: not installed here (apt-get install zsh to run these)', () => undefined);

describe.skipIf(!(await hasShell('fish')))('fish (installed here)', { timeout: 300_000 }, () => {
  it('the README lines install it; fish completes verbs, aliases, values and pool ids', async () => {
    await install(kit, 'fish');
    const complete = async (line: string) => {
      const r = await execa('fish', ['-c', `complete -C '${line}'`], { env: userEnv(kit), extendEnv: false });
      return r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]);
    };
    expect(await complete('proxyctl units l')).toEqual(['list']);
    expect(await complete('proxyctl units bu')).toEqual(['buy']);
    expect((await complete('proxyctl units create --pool ')).sort()).toEqual([...poolIds].sort());
    expect(await complete('proxyctl profiles use ')).toEqual(['play', 'work']);
  });

  it('fish: help’s commands, nothing for numbers, listen’s events, lower-case pool ids, swap targets, periods in order', async () => {
    const complete = async (line: string) => {
      const r = await execa('fish', ['-c', `complete -C '${line}'`], { env: userEnv(kit), extendEnv: false, cwd: work });
      return r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]);
    };
    expect(await complete('proxyctl help ')).toEqual(expect.arrayContaining(['units', 'pools', 'environment', 'exit-codes']));
    expect(await complete('proxyctl help units ')).toEqual(
      expect.arrayContaining(['list', 'get', 'create', 'extend', 'swap', 'release', 'check']),
    );
    expect(await complete('proxyctl webhook set ')).toEqual(['count-a.txt', 'count-b.txt']);
    expect(await complete('proxyctl units create --count ')).toEqual([]);
    expect(await complete('proxyctl units extend --expiring-within 24 --max-spend ')).toEqual([]);
    expect(await complete('proxyctl webhook listen --on ')).toEqual([...EVENT_NAMES]);
    expect(await complete(`proxyctl units create --pool ${lowered}`)).toEqual([onePool]);
    expect(await complete('proxyctl units create --period ')).toEqual(['3h', '12h', '24h', '7d', '30d']);
    // One fish answering TAB after TAB: each TAB asks proxyctl afresh (the script keeps one answer per TAB only).
    const twice = await execa('fish', ['-c', "complete -C 'proxyctl units create --period '; echo ---; complete -C 'proxyctl help e'"], {
      env: userEnv(kit),
      extendEnv: false,
      cwd: work,
    });
    expect(twice.stdout.split('\n').map((l) => l.split('\t')[0])).toEqual([
      '3h',
      '12h',
      '24h',
      '7d',
      '30d',
      '---',
      'environment',
      'exit-codes',
    ]);
    const pools = (await kit.api<{ data: { poolId: string; available: boolean }[] }>('/pools')).data;
    const home = pools.find((p) => p.available)!.poolId;
    const bought = await kit.run(['units', 'create', '--pool', home, '--period', '3h', '--json']);
    expect(bought.exitCode, String(bought.stderr)).toBe(0);
    const ref = (JSON.parse(String(bought.stdout)) as { proxyRef: string }).proxyRef;
    expect((await complete(`proxyctl units swap ${ref} --pool `)).sort()).toEqual(
      pools
        .filter((p) => p.available && p.poolId !== home)
        .map((p) => p.poolId)
        .sort(),
    );
  });
});
if (!(await hasShell('fish'))) describe.skip('fish: not installed here (apt-get install fish to run these)', () => undefined);
