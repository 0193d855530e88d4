// completions/ is generated (`npm run completions`) and committed: each file must be exactly what
// `proxyctl completion <shell>` prints today, and the package must ship the folder.
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { proxyctl, tempHome } from '../helpers/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FILES = { bash: 'proxyctl.bash', zsh: '_proxyctl', fish: 'proxyctl.fish' } as const;

describe('completions/', { timeout: 300_000 }, () => {
  for (const [shell, file] of Object.entries(FILES)) {
    it(`completions/${file} is what proxyctl completion ${shell} prints (else: npm run completions)`, async () => {
      const home = tempHome();
      try {
        const r = await proxyctl(['completion', shell], { home, stripFinalNewline: false });
        expect(r.exitCode).toBe(0);
        expect(readFileSync(join(ROOT, 'completions', file), 'utf8')).toBe(String(r.stdout));
      } finally {
        home.cleanup();
      }
    });
  }

  it('scripts/completions.mjs --check agrees, and the package ships completions/', async () => {
    const r = await execa('node', [join(ROOT, 'scripts/completions.mjs'), '--check'], { reject: false });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[]; scripts: Record<string, string> };
    expect(pkg.files).toContain('completions/');
    expect(pkg.scripts.completions).toContain('scripts/completions.mjs');
  });
});
