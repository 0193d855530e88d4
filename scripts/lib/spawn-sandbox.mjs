// Starts `proxyctl sandbox --port 0 --json` (the built binary) in its own process and resolves
// with the process and the first stdout line: { baseUrl, apiKey, disabledApiKey }.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/proxyctl.js', import.meta.url));

export async function spawnSandbox(extraArgs = []) {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--json', ...extraArgs], { stdio: ['ignore', 'pipe', 'inherit'] });
  const info = await new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (c) => {
      buf += c;
      const i = buf.indexOf('\n');
      if (i >= 0) resolve(JSON.parse(buf.slice(0, i)));
    });
    child.once('exit', (code) => reject(new Error(`the sandbox exited early (code ${code})`)));
  });
  return { child, info };
}
