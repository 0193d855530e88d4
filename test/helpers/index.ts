// The one entry point for test helpers: `import { … } from '../helpers/index.js'`.
//
// - cli.ts             the built binary: proxyctl(args, { home }), ran() (its output as text), tempHome(), cleanEnv(), BIN
// - in-process.ts      main() in-process: runMain(), fakeIO()
// - streams.ts         a spawned process's output: jsonLines(), firstLine(), outputUntil()
// - sandbox.ts         the sandbox in-process over plain fetch: startFastSandbox(), call(), buy(), createUnit(), trigger()
// - sandbox-kit.ts     an in-process sandbox plus the binary pointed at it: startKit()
// - sandbox-process.ts the sandbox as a process (`proxyctl sandbox`): spawnSandbox()
// - scripted-server.ts the one scripted server, for answers the sandbox never gives: startScriptedServer(), json(), rawBody(), apiError()
// - fake-api.ts        canned account/catalogue answers on the scripted server: startFakeApi(), useFakeApi()
// - webhook-sink.ts    a recording webhook receiver on the scripted server: startWebhookSink(), signature()
// - listen-process.ts  `proxyctl webhook listen` as a process: spawnListen()
// - config-file.ts     the config file on disk, logins through stdin, a process holding the config lock
// - fleet.ts         units with chosen pools, expiries, protocols and descriptions put into a kit's sandbox: seedFleet()
// - terminal.ts        the built binary on a pty (script(1)): inTerminal(), answerPrompts(), KEY, renderScreen() (@xterm/headless);
//                      waitForText() (wait, then assert) on it or on main() in-process on a fake TTY (fakeTerminal())
// - package.ts         the package as users get it: packClean() (npm pack from a clean copy), installGlobally(), installInProject()
// - shell.ts           real shells completing proxyctl: shellEnv(), bashCompletions(), shellOnPty(), hasShell()
// - secret-service.ts  an OS keyring of the test's own (private D-Bus + gnome-keyring): startSecretService(), secretServiceMissing()
// - tools.ts           programs a test runs that a machine may lack: notInstalled(), needing() (a skipped title says why)
// - postgres.ts        a PostgreSQL cluster of the test file's own (initdb, pg_ctl on 127.0.0.1): startPostgres(), postgresMissing()
// - team.ts          the machines of a team sharing a ledger: machine() (a HOME of its own), cleanupMachines(), succeeds()
// - tls.ts             certificates made with openssl (a test CA, self-signed, expired, another host) and an HTTPS target: makeTestCertificates(), startHttpsTarget()
//
// Naming: spawnX starts a child process of the built binary; startX starts a server in this process.
export * from './cli.js';
export * from './config-file.js';
export * from './fake-api.js';
export * from './loaded-modules.js';
export * from './in-process.js';
export * from './listen-process.js';
export * from './sandbox.js';
export * from './sandbox-kit.js';
export * from './sandbox-process.js';
export * from './scripted-server.js';
export * from './streams.js';
export * from './terminal.js';
export * from './webhook-sink.js';
export * from './fleet.js';
export * from './package.js';
export * from './proxy-client.js';
export * from './shell.js';
export * from './postgres.js';
export * from './secret-service.js';
export * from './team.js';
export * from './tls.js';
export * from './tools.js';
