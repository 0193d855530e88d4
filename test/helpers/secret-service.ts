// A real Secret Service of the test's own, never the user's: a private D-Bus session bus
// (dbus-daemon with a config that activates nothing, so no other keyring or prompter can start on
// it) and gnome-keyring-daemon on it, its login keyring created and unlocked with a password from
// stdin, its files in a temp dir. Linux only, and only where Debian's dbus and gnome-keyring are
// installed (CI installs them: scripts/ci-shells.mjs); elsewhere the keyring tests skip, saying so.
import { execa, type ResultPromise } from 'execa';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { platform, tmpdir } from 'node:os';
import { join } from 'node:path';

const bin = (name: string) => ['/usr/bin', '/bin', '/usr/local/bin'].map((d) => join(d, name)).find((p) => existsSync(p));

/** Why a Secret Service cannot be started here, or undefined when it can. */
export function secretServiceMissing(): string | undefined {
  if (platform() !== 'linux') return 'the Secret Service tests run on Linux';
  const missing = ['dbus-daemon', 'dbus-send', 'gnome-keyring-daemon'].filter((b) => !bin(b));
  return missing.length ? `${missing.join(', ')} not installed (apt-get install dbus gnome-keyring libsecret-1-0)` : undefined;
}

export interface SecretService {
  /** DBUS_SESSION_BUS_ADDRESS of the private bus. */
  address: string;
  /** The environment a proxyctl run needs to use this keyring (and not to be told to use the file). */
  env: Record<string, string | undefined>;
  /** proxyctl's entries in the keyring, read through the same binding proxyctl uses. */
  entries(): Promise<{ account: string; password: string }[]>;
  /** Locks the login keyring through the Secret Service API, as a screen lock or `secret-tool lock` does. */
  lock(): Promise<void>;
  stop(): Promise<void>;
}

const PASSWORD = 'test-keyring-password';

/** Asks again every 50 ms until `fn` says the service is ready (a daemon announces nothing else), up to ~10 s. */
async function until(what: string, fn: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await fn()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the test's Secret Service did not come up: ${what}`);
}

export async function startSecretService(): Promise<SecretService> {
  const dir = mkdtempSync(join(tmpdir(), 'proxyctl-keyring-'));
  const run = join(dir, 'run');
  mkdirSync(run, { mode: 0o700 });
  const socket = join(dir, 'bus');
  const address = `unix:path=${socket}`;
  const config = join(dir, 'bus.conf');
  // A session bus that activates no services: nothing but the daemon started below owns org.freedesktop.secrets.
  writeFileSync(
    config,
    `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>${address}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`,
  );
  const env = { HOME: dir, XDG_DATA_HOME: join(dir, 'data'), XDG_RUNTIME_DIR: run, DBUS_SESSION_BUS_ADDRESS: address };
  const children: ResultPromise[] = [];
  const stop = async () => {
    for (const c of children.reverse()) {
      c.kill('SIGTERM');
      await c.catch(() => undefined);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    children.push(execa(bin('dbus-daemon')!, [`--config-file=${config}`, '--nofork'], { env, reject: false, stdio: 'ignore' }));
    const send = (...args: string[]) =>
      execa(bin('dbus-send')!, ['--session', '--print-reply', ...args], { env, reject: false, timeout: 10_000 });
    await until(
      'the bus',
      async () => existsSync(socket) && (await send('--dest=org.freedesktop.DBus', '/', 'org.freedesktop.DBus.ListNames')).exitCode === 0,
    );
    children.push(
      execa(bin('gnome-keyring-daemon')!, ['--unlock', '--components=secrets', '--foreground'], {
        env,
        input: PASSWORD,
        reject: false,
        stdout: 'ignore',
        stderr: 'ignore',
      }),
    );
    const owned = async () =>
      /boolean true/.test(
        String(
          (
            await send(
              '--dest=org.freedesktop.DBus',
              '/org/freedesktop/DBus',
              'org.freedesktop.DBus.NameHasOwner',
              'string:org.freedesktop.secrets',
            )
          ).stdout,
        ),
      );
    await until('gnome-keyring on the bus', owned);
    // Its default collection: the login keyring, made from the password on stdin.
    const login = async () =>
      /collection\/login/.test(
        String(
          (
            await send(
              '--dest=org.freedesktop.secrets',
              '/org/freedesktop/secrets',
              'org.freedesktop.Secret.Service.ReadAlias',
              'string:default',
            )
          ).stdout,
        ),
      );
    await until('the login keyring', login);
  } catch (err) {
    await stop();
    throw err;
  }
  const binding = createRequire(import.meta.url).resolve('@napi-rs/keyring');
  return {
    address,
    env: { DBUS_SESSION_BUS_ADDRESS: address, PROXYCTL_INSECURE_STORAGE: undefined },
    entries: async () => {
      const script = `const k = require(${JSON.stringify(binding)}); process.stdout.write(JSON.stringify(k.findCredentials('proxyctl')));`;
      const r = await execa(process.execPath, ['-e', script], { env, extendEnv: true, timeout: 30_000 });
      return (JSON.parse(r.stdout) as { account: string; password: string }[]).sort((a, b) => a.account.localeCompare(b.account));
    },
    lock: async () => {
      const r = await execa(
        bin('dbus-send')!,
        [
          '--session',
          '--print-reply',
          '--dest=org.freedesktop.secrets',
          '/org/freedesktop/secrets',
          'org.freedesktop.Secret.Service.Lock',
          'array:objpath:/org/freedesktop/secrets/collection/login',
        ],
        { env, timeout: 10_000 },
      );
      if (!r.stdout.includes('collection/login')) throw new Error(`the login keyring was not locked: ${r.stdout}`);
    },
    stop,
  };
}
