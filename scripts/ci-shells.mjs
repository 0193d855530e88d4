// Before the suite on CI: the zsh and fish completion tests run only where those shells exist, and
// a fresh CI machine has bash alone. When CI is set, we are root and apt-get is there, install them
// from Debian's packages so the tests run for real; anything else (a developer's machine, no root,
// no apt, no network) leaves the machine alone and the tests skip, saying so. Never fails the run.
import { execFileSync, spawnSync } from 'node:child_process';

const have = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
const missing = ['zsh', 'fish'].filter((s) => !have(s));
const ci = process.env.CI && process.env.CI !== 'false' && process.env.CI !== '0';

if (missing.length === 0) {
  console.log('ci-shells: zsh and fish are installed; their completion tests run');
} else if (!ci || process.getuid?.() !== 0 || !have('apt-get')) {
  console.log(`ci-shells: ${missing.join(', ')} not installed; their completion tests will skip (CI installs them)`);
} else {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], {
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
    console.log(`ci-shells: installed ${missing.join(', ')} from Debian's packages for the completion tests`);
  } catch (e) {
    console.log(`ci-shells: could not install ${missing.join(', ')} (${e.message.split('\n')[0]}); their tests will skip`);
  }
}
