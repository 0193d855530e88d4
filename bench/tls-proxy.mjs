// Serves a plain-http server over https for bench/cli.mjs: a TLS-terminating loopback relay (the
// sandbox serves plain http only, and src/sandbox stays as it is). Each TLS connection gets its own
// TCP connection to the target, so keep-alive behaves as it does against the target itself. Run in
// its own process (the bench times its children with spawnSync, which blocks its own event loop).
// Prints {"baseUrl":"https://127.0.0.1:<port>"} on its first stdout line.
//   node bench/tls-proxy.mjs <target port> <cert.pem> <key.pem>
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { createServer } from 'node:tls';

const [port, certFile, keyFile] = process.argv.slice(2);
const server = createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (tls) => {
  const up = connect(Number(port), '127.0.0.1');
  up.setNoDelay(true);
  tls.pipe(up).pipe(tls);
  const end = () => {
    tls.destroy();
    up.destroy();
  };
  tls.on('error', end).on('close', end);
  up.on('error', end).on('close', end);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ baseUrl: `https://127.0.0.1:${server.address().port}` })}\n`);
});
process.on('SIGTERM', () => process.exit(0));
