// `npm run completions`: writes completions/proxyctl.bash, completions/_proxyctl and
// completions/proxyctl.fish from the built CLI (`proxyctl completion <shell>`), so the committed
// files are exactly what the command prints. `--check` writes nothing and exits 1 when a file is
// stale (test/commands/completion-files.test.ts does the same comparison).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);
const bin = fileURLToPath(new URL('bin/proxyctl.js', root));
const files = { bash: 'proxyctl.bash', zsh: '_proxyctl', fish: 'proxyctl.fish' };
const check = process.argv.includes('--check');

const stale = [];
mkdirSync(new URL('completions/', root), { recursive: true });
for (const [shell, file] of Object.entries(files)) {
  // No code cache: a build step has no business in the user's cache dir.
  const text = execFileSync(process.execPath, [bin, 'completion', shell], {
    encoding: 'utf8',
    env: { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1' },
  });
  const path = new URL(`completions/${file}`, root);
  let old;
  try {
    old = readFileSync(path, 'utf8');
  } catch {
    old = undefined;
  }
  if (old === text) continue;
  if (check) stale.push(`completions/${file}`);
  else {
    writeFileSync(path, text);
    console.log(`wrote completions/${file}`);
  }
}
if (stale.length > 0) {
  console.error(`stale: ${stale.join(', ')}; run npm run completions`);
  process.exit(1);
}
