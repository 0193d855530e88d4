// What each flag's and argument's value completes with: a fixed set, values the account's own
// commands left in the values cache, or the profile names in the config file. Keyed by flag (the
// same flag means the same thing on every command, see options.ts) or by "<command path> <flag>"
// where a flag's values differ per command; arguments by name or "<command path> <name>". A flag
// declared with commander's .choices() completes with those and needs no entry here.
import { PERIODS, PROTOCOLS } from '../../api/enums.js';
import { UNIT_STATUSES } from '../../units/validate.js';
import { SORT_FIELDS } from '../../units/sort.js';
import { DELIVERY_STATUSES, EVENT_NAMES } from '../../webhooks/events.js';
import type { ValueKind } from '../../config/values-cache.js';
import { CONN_PRESETS } from '../../output/conn-names.js';

export type Source =
  | { fixed: readonly string[] }
  | { cached: ValueKind }
  | { profiles: true }
  /** The command names under the words typed so far, and the help topics at the top (`help units <TAB>`). */
  | { commands: true }
  /**
   * Cached pool ids less those last seen unavailable (a purchase or swap there fails): what can be
   * bought (`units create --pool`), and for a swap also less the unit's own pool.
   */
  | { buyable: 'create' | 'swap' };

const fixed = (values: readonly string[]): Source => ({ fixed: values });
const cached = (kind: ValueKind): Source => ({ cached: kind });
const profiles: Source = { profiles: true };

/** What a number is completed with: nothing, and no file names either (a file called 10 is no count). */
export const NOTHING: Source = fixed([]);

/**
 * Placeholders of the values that are numbers or durations (`--count <n>`, `--max-spend <usd>`,
 * `--expiring-within <hours>`, `sandbox advance <seconds>`): a flag or argument named so completes
 * with NOTHING, a new one included, without an entry here.
 */
const NUMBER_PLACEHOLDERS = new Set(['n', 'usd', 'hours', 'seconds', 'ms', 'percent', 'port', '0..1', 'factor', 'interval']);

/** True for a flag (`--count <n>`) or an argument name (`seconds`) whose value is a number. */
export function takesNumber(flagsOrName: string): boolean {
  const placeholder = /[<[]([^>\]]+)[>\]]/.exec(flagsOrName)?.[1] ?? flagsOrName;
  return NUMBER_PLACEHOLDERS.has(placeholder.replace(/\.\.\.$/, ''));
}

export const FLAG_VALUES: Record<string, Source> = {
  '--period': fixed(PERIODS),
  '--protocol': fixed([...PROTOCOLS, 'inject']),
  '--conn-format': fixed(CONN_PRESETS),
  '--pool': cached('pools'),
  'units create --pool': { buyable: 'create' },
  'units swap --pool': { buyable: 'swap' },
  '--country': cached('countries'),
  '--state': cached('states'),
  '--provider': cached('providers'),
  '--unit': cached('units'),
  '--profile': profiles,
  'units list --status': fixed(UNIT_STATUSES),
  'units list --sort': fixed(SORT_FIELDS),
  'webhook log --status': fixed(DELIVERY_STATUSES),
  'webhook log --event': fixed(EVENT_NAMES),
  'webhook listen --on': fixed(EVENT_NAMES),
};

export const ARG_VALUES: Record<string, Source> = {
  ref: cached('units'),
  refs: cached('units'),
  'pool-id': cached('pools'),
  'profiles use name': profiles,
  'profiles remove name': profiles,
  'sandbox trigger event': fixed(EVENT_NAMES),
  'help command': { commands: true },
};
