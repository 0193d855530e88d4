// Options that several commands share, declared once: the same flag has the same spelling,
// placeholder, parsing and (where it means the same thing) help text everywhere.
import { Option } from './commander.js';
import { UsageError } from '../errors.js';

/** Repeatable flags (--allow-ip, --secret) collect their values into an array. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export const PERIOD_HELP = 'period: 3h, 12h, 24h, 7d or 30d';

export const period = () => new Option('--period <period>', PERIOD_HELP);
export const pool = (help: string) => new Option('--pool <poolId>', help);
export const protocol = (help: string) => new Option('--protocol <protocol>', help);
export const dryRun = (help: string) => new Option('--dry-run', help);
export const country = (help: string) => new Option('--country <cc>', help);
/** A port to listen on (0: any free one); read with parseInteger. */
export const port = (help: string, byDefault: string) => new Option('--port <port>', help).default(byDefault);

/** Proxy credentials: --username and --password go together. */
export const username = (help: string) => new Option('--username <name>', help);
export const password = (help: string) => new Option('--password <password>', help);
export const allowIp = (help: string) => new Option('--allow-ip <ipv4>', help).argParser(collect);

/** Paging through a list. */
export const page = () => new Option('--page <n>', 'page number (from 1)');
export const pageSize = (help: string) => new Option('--page-size <n>', help);
/** Every item is the default now; --all stays accepted (scripts use it) and says so in help. */
export const all = () => new Option('--all', 'every page, streamed (the default; kept for scripts)');
/** Caps a list at N items (the default is every item, streamed page by page). */
export const limit = () => new Option('--limit <n>', 'at most this many items (default: all of them, streamed)');

/** Webhook secrets: repeatable for a rotation window. */
export const secret = (help: string) => new Option('--secret <secret>', help).argParser(collect).default([] as string[]);

/** The one integer parser lives with the global options, so domain code can use it too. */
export { parseInteger } from '../globals.js';

/** `--expiring-within`: the one flag that asks for hours, on `units list` and `units extend`. */
export const expiringWithin = (help: string) => new Option('--expiring-within <hours>', `${help} (24, 36h, 1d, 1d12h, 1w)`);

const MINUTES_PER = { w: 7 * 24 * 60, d: 24 * 60, h: 60, m: 1 } as const;

/**
 * The one duration grammar every flag that takes a duration reads (`--expiring-within`, `spend
 * --since/--until`): a bare number is hours (as the API's `expiringWithinHours`), else weeks, days,
 * hours and minutes in any combination (`36h`, `1d12h`, `1w`, `1.5d`, `90m`). Its length in
 * minutes, or undefined when `raw` is not one.
 */
export function durationMinutes(raw: string): number | undefined {
  const s = raw.trim().toLowerCase().replace(/\s+/g, '');
  if (/^\d+(?:\.\d+)?$/.test(s)) return Number(s) * 60;
  if (!/^(?:\d+(?:\.\d+)?[wdhm])+$/.test(s)) return undefined;
  let minutes = 0;
  for (const [, n, unit] of s.matchAll(/(\d+(?:\.\d+)?)([wdhm])/g)) minutes += Number(n) * MINUTES_PER[unit as keyof typeof MINUTES_PER];
  return minutes;
}

/**
 * Hours, wherever they are asked for: a duration (`durationMinutes`) that comes to a whole number of
 * hours, at least 1 (the API counts whole hours). Anything else is exit 2, before any request.
 */
export function parseHours(raw: string, flag: string): number;
export function parseHours(raw: string | undefined, flag: string): number | undefined;
export function parseHours(raw: string | undefined, flag: string): number | undefined {
  if (raw === undefined) return undefined;
  const minutes = durationMinutes(raw);
  // A decimal fraction is inexact in binary: a sum a hair off a whole number counts as that number.
  const exact = minutes === undefined ? Number.NaN : minutes / 60;
  const hours = Math.abs(exact - Math.round(exact)) < 1e-9 ? Math.round(exact) : Number.NaN;
  if (Number.isSafeInteger(hours) && hours >= 1) return hours;
  const what = minutes === undefined ? 'a duration' : `${+minutes.toFixed(3)} minutes`;
  throw new UsageError(
    `${flag} must be a whole number of hours, at least 1 (24, 36h, 1d, 1d12h, 1w); got "${raw}"${minutes === undefined ? '' : `, ${what}`}`,
  );
}

/**
 * A flag the command needs but asks for in a terminal when it is left out (the handler enforces
 * it: exit 2 without a terminal). Its help says both.
 */
export function askedIfMissing<O extends InstanceType<typeof Option>>(o: O): O {
  o.description = `${o.description} (required; asked in a terminal if left out)`;
  return o;
}

/** `-o conn` lines as a customer's software wants them (src/output/conn.ts); implies -o conn. */
export const connFormat = () =>
  new Option(
    '--conn-format <format>',
    '-o conn lines as: colon (ip:port:user:pass, the default), at (user:pass@ip:port), url (socks5://user:pass@ip:port) or a template of {ip} {port} {user} {pass} {protocol} {ref} {pool} {country} {expiresAt}; implies -o conn',
  );

/** Only units whose description contains this text (any case); matched here, after paging. */
export const descriptionContains = (help: string) => new Option('--description-contains <text>', help);

/** What each --description-contains help says after its own words: a substring selects no customer. */
export const NOT_A_CUSTOMER = 'a substring, so acme also matches customer=acme-corp: select a customer with --customer';

/** Only units tagged for exactly this customer (`customer=NAME` in the description, any case: acme is not acme-corp). */
export const customer = (help: string) => new Option('--customer <name>', help);

/** After the help of the verbs that talk to a running sandbox (`sandbox state|advance|trigger`). */
export const WHICH_SANDBOX =
  '\nWhich sandbox: --base-url, else PROXYCTL_BASE_URL, else the base URL of the\n' +
  'profile in use when it is a sandbox (log in to one with\n' +
  'proxyctl login --base-url http://127.0.0.1:PORT --api-key-stdin).';
