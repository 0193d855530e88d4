// Only src/cli.ts touches `process`: everything else gets streams, environment and exit codes
// through the IO object and the context, so it runs the same in tests and in other hosts.
// dependency-cruiser sees imports, not globals, so this is the check for the global.
// Usage: node scripts/check-process.mjs [root]   (root defaults to the repository; exit 1 on a hit)
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const ALLOWED = new Set(['src/cli.ts']);
// Known exceptions today, to be removed as they are fixed (then delete the line here):
const EXCEPTIONS = new Set([
  'src/version.ts', // process.versions.node in the User-Agent
]);

const root = process.argv[2] ?? join(import.meta.dirname, '..');
// process.x, process[...], a bare `process` passed along, or an import of node:process.
const USE = /(?<![\w$.])process\s*(?:[.[),;]|$)|['"](?:node:)?process['"]/m;

/** Comments and string contents out, line structure kept, so a hit's line number is right. */
function code(text) {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' '))
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1')
    .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"/g, (m) => (/^['"](node:)?process['"]$/.test(m) ? m : '""'));
}

const hits = [];
for (const entry of readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !/\.[cm]?[jt]s$/.test(entry.name)) continue;
  const file = relative(root, join(entry.parentPath ?? entry.path, entry.name))
    .split(sep)
    .join('/');
  if (ALLOWED.has(file) || EXCEPTIONS.has(file)) continue;
  code(readFileSync(join(root, file), 'utf8'))
    .split('\n')
    .forEach((line, i) => {
      if (USE.test(line)) hits.push(`${file}:${i + 1}: ${line.trim()}`);
    });
}
if (hits.length > 0) {
  console.error(`only src/cli.ts may use \`process\` (see docs/architecture.md); found:\n${hits.join('\n')}`);
  process.exit(1);
}
