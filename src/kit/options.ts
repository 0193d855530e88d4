// Options that several commands share, declared once: the same flag has the same spelling,
// placeholder, parsing and (where it means the same thing) help text everywhere.
import { Option } from './commander.js';

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

/** The one integer and hours parsers live with the global options, so domain code can use them too. */
export { durationMinutes, parseHours, parseInteger } from '../globals.js';

/** `--expiring-within`: the one flag that asks for hours, on `units list` and `units extend`. */
export const expiringWithin = (help: string) => new Option('--expiring-within <hours>', `${help} (24, 36h, 1d, 1d12h, 1w)`);

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

/** A money report's window (customers, statements): --since/--until as `spend` reads them, or one --month. */
export const since = (help = 'from this date (YYYY-MM-DD, local midnight), time (ISO 8601) or this long ago (24h, 7d)') =>
  new Option('--since <date>', help);
export const until = (help = 'up to this date (YYYY-MM-DD: to the end of that day), time or this long ago; default now') =>
  new Option('--until <date>', help);
export const month = (help = 'one calendar month, YYYY-MM (local time), instead of --since/--until') =>
  new Option('--month <yyyy-mm>', help);
