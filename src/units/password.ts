// `units modify --regenerate-password`: a proxy password made here, from the OS's CSPRNG, so it
// never passes through argv, the shell's history or ps. Letters and digits only: nothing that a
// connection string (ip:port:user:pass), a URL's user info or a customer's config file would need
// to escape. 24 of 62 symbols is about 143 bits.
import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const PASSWORD_LENGTH = 24;

/** A new password; bytes at or above the largest multiple of 62 are drawn again, so every symbol is equally likely. */
export function generatePassword(length = PASSWORD_LENGTH): string {
  const limit = 256 - (256 % ALPHABET.length);
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < limit) out += ALPHABET[b % ALPHABET.length];
      if (out.length === length) break;
    }
  }
  return out;
}
