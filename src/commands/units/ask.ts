// A flag a unit command needs and was not given: in a terminal it is asked for, as the guided
// create asks (a list to choose from where the server knows the answers, an input checked by the
// same parser as the flag otherwise); anywhere else (no TTY, --no-input, CI) it is a usage error,
// exit 2, that names the flag to add, thrown before any request is sent.
import type { Context } from '../../context/index.js';
import type { Prompter } from '../../context/prompt.js';
import { UsageError } from '../../errors.js';
import { escapeControl, money } from '../../output/index.js';
import { describeQuote, type Quote } from '../../units/quote.js';
import type { Pool } from '../../units/types.js';
import { PERIODS, type Period, type Protocol } from '../../units/validate.js';

/** "3h, 12h, 24h, 7d or 30d" */
export const PERIOD_LIST = `${PERIODS.slice(0, -1).join(', ')} or ${PERIODS.at(-1)}`;

/**
 * Prompts for the missing `flag`, or (no prompt possible) exit 2: "<flag> is required (<what>)",
 * with `example` as the command to type instead.
 */
export function askForMissing(ctx: Context, flag: string, o: { what: string; example: string; cancelled: string }): Promise<Prompter> {
  return ctx.prompt.open({
    unavailable: new UsageError(`${flag} is required (${o.what})`, {
      hint: `e.g. ${o.example} (in a terminal, leave it out to be asked)`,
    }),
    cancelled: o.cancelled,
  });
}

/** An inquirer `validate` from a parser that throws: the parser's message is shown under the input. */
export function validateWith(parse: (v: string) => unknown): (v: string) => true | string {
  return (v) => {
    try {
      parse(v);
      return true;
    } catch (e) {
      return (e as Error).message;
    }
  };
}

/** The periods with their prices ("7d   $12.00 each"), for a select. */
export function periodChoices(prices: Record<string, number> | undefined, each: boolean): { name: string; value: Period }[] {
  return PERIODS.map((p) => ({ name: `${p.padEnd(4)} ${money(prices?.[p])}${each ? ' each' : ''}`, value: p }));
}

export const PROTOCOL_CHOICES: { name: string; value: Protocol }[] = [
  { name: 'socks5 (username and password)', value: 'socks5' },
  { name: 'http (username and password)', value: 'http' },
  { name: 'http_noauth / inject (no login, one whitelisted IP)', value: 'http_noauth' },
];

/** Where a pool is and how it rotates: "Verizon, texas, rotation 10m". */
export function poolWhere(p: Pool): string {
  return [p.provider, p.state, p.rotation ? `rotation ${p.rotation}` : 'no rotation'].filter(Boolean).join(', ');
}

/** A pool for a select: unavailable ones are shown but cannot be chosen. */
export function poolChoice(p: Pool, label: string): { name: string; value: string; disabled: string | false } {
  // The prompt prints `disabled` after the name, so the name itself does not say it again.
  return { name: escapeControl(label), value: p.poolId, disabled: p.available === false ? '(unavailable)' : false };
}

/**
 * Before a prompted charge's confirmation: what it buys and costs, then the balance before and
 * after, on two lines so that each fits an 80-column terminal.
 */
export function printQuote(ctx: Context, q: Quote, what: string): void {
  const [cost, balance] = describeQuote(q, what).split('; balance ');
  ctx.io.stderr.write(`${escapeControl(`${cost}`)}\n${escapeControl(`balance ${balance}`)}\n`);
}

/** The last question before a charge, worded the same by every command that charges. */
export const CHARGES = {
  buy: { verb: 'Buy', declined: 'nothing bought: the purchase was not confirmed', cancelled: 'cancelled; nothing was bought' },
  extend: { verb: 'Extend', declined: 'nothing extended: the extension was not confirmed', cancelled: 'cancelled; nothing was extended' },
} as const;

/** "Buy for 68.00 USD? (y/N)": goes on after a yes; a no (Enter alone) is exit 2 with nothing charged. */
export function confirmCharge(confirm: Prompter['confirm'], kind: keyof typeof CHARGES, q: Quote): Promise<void> {
  return confirm({ message: `${CHARGES[kind].verb} for ${money(q.total)}?` }, CHARGES[kind].declined);
}
