// API keys in the operating system's keyring (macOS Keychain, Windows Credential Manager, the
// Secret Service on Linux) through @napi-rs/keyring: prebuilt binaries, nothing to compile on the
// user's machine. The binding is a native module that talks D-Bus or Security.framework, so it is
// imported only here and only when a stored key is read, written or removed (never for --help,
// completion, the sandbox or a key from PROXYCTL_API_KEY). Every failure becomes a KeyringError
// that says which kind it is, so callers can tell "there is no keyring here" (fall back to the
// file, and say so) from "there is one and it refuses" (an error with the way out).
import { KeyringError } from '../errors.js';

/** The keyring service every proxyctl key is filed under; the account names the profile. */
export const KEYRING_SERVICE = 'proxyctl';

type Binding = typeof import('@napi-rs/keyring');
type Entry = InstanceType<Binding['AsyncEntry']>;

let binding: Promise<Binding> | undefined;
/** Keys read or written by this process: a command that looks at its credentials twice asks the keyring once. */
const known = new Map<string, string | undefined>();

/**
 * The keyring entry of one profile. On Linux the Secret Service is required: the binding would
 * otherwise fall back to the kernel keyring, which forgets everything at reboot, and a key saved
 * there would vanish without a word.
 */
async function entryFor(account: string): Promise<Entry> {
  binding ??= import('@napi-rs/keyring');
  let b: Binding;
  try {
    b = await binding;
  } catch (err) {
    binding = undefined;
    throw new KeyringError('unavailable', `the keyring binding could not be loaded (${firstLine(err)})`);
  }
  try {
    return new b.AsyncEntry(KEYRING_SERVICE, account, { linux: { store: 'secret-service' } });
  } catch (err) {
    throw classify(err);
  }
}

/** The key stored for `account`, or undefined when the keyring holds none. */
export async function readKeyringKey(account: string, signal?: AbortSignal): Promise<string | undefined> {
  if (known.has(account)) return known.get(account);
  const entry = await entryFor(account);
  try {
    const key = (await entry.getPassword(signal)) ?? undefined;
    known.set(account, key);
    return key;
  } catch (err) {
    throw classify(err);
  }
}

/** Stores `key` for `account`, replacing any key stored before. */
export async function writeKeyringKey(account: string, key: string, signal?: AbortSignal): Promise<void> {
  const entry = await entryFor(account);
  try {
    await entry.setPassword(key, signal);
  } catch (err) {
    throw classify(err, key);
  }
  known.set(account, key);
}

/** Removes the key of `account`; false when there was none. */
export async function deleteKeyringKey(account: string, signal?: AbortSignal): Promise<boolean> {
  const entry = await entryFor(account);
  try {
    const deleted = await entry.deleteCredential(signal);
    known.set(account, undefined);
    return deleted;
  } catch (err) {
    throw classify(err);
  }
}

/**
 * keyring-rs's errors, as the binding words them: "Platform failure: …" when there is no store to
 * talk to (no D-Bus session bus, no Secret Service on it), "Couldn't access platform storage: …"
 * when the store is there but will not serve (locked, the unlock prompt dismissed, access denied,
 * no default collection). Anything else (an ambiguous entry, a bad encoding) is a refusal too: the
 * keyring is there, so falling back to the file would hide it.
 */
function classify(err: unknown, key?: string): KeyringError {
  const raw = firstLine(err);
  // The binding never puts the secret in a message; this keeps it so if one ever did.
  const message = key ? raw.split(key).join('…') : raw;
  if (/^Platform failure: /.test(message)) return new KeyringError('unavailable', message.replace(/^Platform failure: /, ''));
  return new KeyringError('refused', message.replace(/^Couldn't access platform storage: /, ''));
}

function firstLine(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  return m.split('\n')[0] ?? m;
}
