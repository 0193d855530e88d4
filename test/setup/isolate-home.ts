// Every test worker gets its own temporary HOME and XDG_CONFIG_HOME, so an in-process test whose
// fake environment names no PROXYCTL_CONFIG_DIR (conf then falls back to the OS config dir under
// the home directory) can never read or write the real user's config. Nor the real user's keyring:
// logins keep keys in the temp config file (PROXYCTL_INSECURE_STORAGE, which every spawned binary
// inherits; the macOS Keychain cannot be pointed elsewhere), and the session bus the Secret Service
// would be reached on is one that does not exist. The keyring tests start a keyring of their own
// and undo both for their processes (test/config/keyring.test.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const home = mkdtempSync(join(tmpdir(), 'proxyctl-home-'));
process.env.HOME = home;
process.env.XDG_CONFIG_HOME = join(home, '.config');
delete process.env.PROXYCTL_CONFIG_DIR;
delete process.env.PROXYCTL_API_KEY;
delete process.env.PROXYCTL_BASE_URL;
delete process.env.PROXYCTL_PROFILE;
process.env.PROXYCTL_INSECURE_STORAGE = '1';
process.env.DBUS_SESSION_BUS_ADDRESS = `unix:path=${join(home, 'no-session-bus')}`;

afterAll(() => rmSync(home, { recursive: true, force: true }));
