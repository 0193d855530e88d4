// `units change-protocol REF --protocol P`: free; http_noauth needs exactly one whitelisted IP.
import { getUnit } from '../../api/endpoints.js';
import { show, type Result } from '../../kit/action.js';
import type { Input } from './change-protocol.command.js';
import type { Context } from '../../context/index.js';
import { escapeControl } from '../../output/index.js';
import { changeProtocol, missingProtocol, parseChangeProtocol } from '../../units/change-protocol.js';
import { normaliseAllowIps, parseCredentials, parseIPv4, parseProtocol, parseRef, type Protocol } from '../../units/validate.js';
import { changedUnitView, unitDetailView } from '../../units/view.js';
import { withConnFormat } from '../../output/conn.js';
import { PROTOCOL_CHOICES, validateWith } from './ask.js';

type Flags = Input['flags'];

/**
 * In a terminal, what the flags leave out is asked for: the protocol (from a list, the unit's
 * current one shown but not selectable), the one client IP for http_noauth, and the other half of
 * --username/--password. The answers become the same flags, checked by parseChangeProtocol.
 */
async function askMissing(ref: string, f: Flags, ctx: Context): Promise<Flags> {
  // What was given is checked first, so a typo fails before any question.
  const given = f.protocol === undefined ? undefined : parseProtocol(f.protocol);
  const ips = normaliseAllowIps(f.allowIp);
  const halfCredentials = (f.username === undefined) !== (f.password === undefined);
  const needIp = (p: Protocol | undefined) => p === 'http_noauth' && ips.length === 0;
  if (given !== undefined && !needIp(given) && !(halfCredentials && given !== 'http_noauth')) return f;
  const ask = await ctx.prompt.open({ unavailable: missingProtocol(), cancelled: 'cancelled; the protocol was not changed' });
  const out: Flags = { ...f };
  let protocol = given;
  if (protocol === undefined) {
    const unit = await getUnit(await ctx.api(), ref);
    protocol = await ask.select<Protocol>({
      message: escapeControl(`New protocol for ${ref} (now ${unit.protocol ?? 'unknown'})`),
      choices: PROTOCOL_CHOICES.map((c) => ({ ...c, disabled: c.value === unit.protocol ? '(current)' : false })),
    });
    out.protocol = protocol;
  }
  if (needIp(protocol)) out.allowIp = [await ask.input({ message: 'Client IPv4 allowed to connect', validate: validateWith(parseIPv4) })];
  else if (halfCredentials && protocol !== 'http_noauth') {
    if (out.username === undefined)
      out.username = await ask.input({ message: 'Proxy username', validate: validateWith((v) => parseCredentials(v, 'x')) });
    else
      out.password = await ask.password({ message: 'Proxy password', mask: true, validate: validateWith((v) => parseCredentials('x', v)) });
  }
  return out;
}

export default async function handler({ args: [raw], flags, ctx }: Input): Promise<Result> {
  const view = withConnFormat(ctx, changedUnitView(unitDetailView), flags.connFormat);
  const ref = parseRef(raw);
  const body = parseChangeProtocol(ctx.canPrompt ? await askMissing(ref, flags, ctx) : flags);
  return show(await changeProtocol(await ctx.api(), ref, body), view);
}
