// The baseline for bench/sandbox.mjs: a bare node:http server that answers every request with a
// fixed JSON body and the same response headers as the sandbox. Measured in the same run, it
// tells how much of the machine's loopback HTTP capacity the sandbox keeps.
import { createServer } from 'node:http';

const body = JSON.stringify({ prices: { '3h': 1.28, '12h': 2.55, '24h': 4.25, '7d': 21.25, '30d': 68 } });
let seq = 0;
const server = createServer((req, res) => {
  req.resume();
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'x-request-id': `req_${(++seq).toString(36)}`,
    'x-api-version': '1.0.0',
    'x-ratelimit-limit': '1000000000',
    'x-ratelimit-remaining': '999999999',
    'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 60),
  });
  res.end(body);
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  process.stdout.write(`${JSON.stringify({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'baseline' })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
