// Before the suite on CI: some tests run only where optional programs exist, and a fresh CI machine
// has bash alone. The zsh and fish completion tests need those shells; the OS keyring tests need a
// Secret Service of their own (a private D-Bus session bus and gnome-keyring on it:
// test/helpers/secret-service.ts); the sandbox's proxies are tried with curl; the terminal tests
// run the binary on a pty through script(1); the TLS tests make certificates with openssl; the team
// ledger tests run a PostgreSQL cluster of their own (test/helpers/postgres.ts). When CI is set, we
// are root and apt-get is there, install them from Debian's packages so the tests run for real; anything else (a developer's machine, no root,
// no apt, no network) leaves the machine alone and the tests skip, saying so. Never fails the run.
import { execFileSync, spawnSync } from 'node:child_process';

const have = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

/** What the optional tests need: the commands they run, and the Debian packages that bring them. */
const NEEDS = [
  { tests: 'zsh completion', commands: ['zsh'], packages: ['zsh'] },
  { tests: 'fish completion', commands: ['fish'], packages: ['fish'] },
  { tests: 'curl through the sandbox', commands: ['curl'], packages: ['curl'] },
  { tests: 'terminal (pty)', commands: ['script'], packages: ['bsdutils'] },
  { tests: 'TLS certificates', commands: ['openssl'], packages: ['openssl'] },
  // Debian's server package: initdb and pg_ctl in /usr/lib/postgresql/<v>/bin, pg_ctlcluster and psql on PATH.
  { tests: 'shared ledger (PostgreSQL)', commands: ['pg_ctlcluster', 'psql'], packages: ['postgresql'] },
  {
    tests: 'OS keyring',
    commands: ['dbus-daemon', 'dbus-send', 'gnome-keyring-daemon'],
    packages: ['dbus', 'gnome-keyring', 'libsecret-1-0'],
  },
];

const missing = NEEDS.filter((n) => !n.commands.every(have));
const names = (list) => list.map((n) => `${n.tests} (${n.packages.join(', ')})`).join('; ');
const ci = process.env.CI && process.env.CI !== 'false' && process.env.CI !== '0';

if (missing.length === 0) {
  console.log(`ci-shells: everything the ${NEEDS.map((n) => n.tests).join(', ')} tests need is installed; they run`);
} else if (!ci || process.getuid?.() !== 0 || !have('apt-get')) {
  console.log(`ci-shells: not installed, so these tests will skip (CI installs them): ${names(missing)}`);
} else {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const packages = missing.flatMap((n) => n.packages);
  const install = () =>
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], {
      env,
      stdio: 'ignore',
      timeout: 240_000,
    });
  try {
    try {
      install();
    } catch {
      execFileSync('apt-get', ['update', '-qq'], { env, stdio: 'ignore', timeout: 240_000 });
      install();
    }
    console.log(`ci-shells: installed from Debian's packages for their tests: ${names(missing)}`);
  } catch (e) {
    console.log(
      `ci-shells: could not install ${packages.join(', ')} (${e.message.split('\n')[0]}); their tests will skip: ${names(missing)}`,
    );
  }
}
