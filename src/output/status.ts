// The `proxyctl status` screen: one labelled line per topic, like `gh status`. Lists in a line
// (countries, expiring units) take what fits the terminal and say how many more there are.
import { stripVTControlCharacters } from 'node:util';
import { escapeControl, escapeDeep } from './escape.js';
import { cell, endedText, money, percent, relativeTime, sparkline, type Paint } from './format.js';

export interface StatusReport {
  balanceUsd: number;
  runwayDays: number | null;
  renewalPerDayUsd: number;
  units: {
    total: number;
    active: number;
    byStatus: Record<string, number>;
    byCountry: Record<string, number>;
    expiringWithin24h: number;
    expiring: { proxyRef: string; expiresAt: string | undefined; expiresIn: number }[];
    unpriced?: number;
  };
  /** Per customer tag, when any unit or ledger debit carries one. */
  customers?: {
    customer: string;
    activeUnits: number;
    spentLast30DaysUsd: number;
    /** With prices set (customers set, default-markup): what that spend is billed, and the margin. */
    billedLast30DaysUsd?: number;
    marginLast30DaysUsd?: number;
  }[];
  /** null: the uptime budget was spent (429); the rest still shows. */
  uptime: {
    from: string | undefined;
    to: string | undefined;
    uptimePercent: number | null;
    windows: { from: string | undefined; to: string | undefined; uptimePercent: number | null }[];
  } | null;
  webhook: { url: string | null; enabled: boolean; failedLastDay: number; failedLastDayAtLeast?: boolean };
}

export interface StatusLook {
  paint: Paint;
  /** Terminal width, or undefined when piped (lines are then whole). */
  width: number | undefined;
  /** "in 3h 12m" on a terminal; ISO times when piped. */
  relative: boolean;
  /** The clock "expired 2m ago" is told against. */
  now: number;
}

const LABEL = 10;
const visible = (s: string) => stripVTControlCharacters(s).length;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * `items` joined after `head` while they fit `width`, then "+N more". The first item is always
 * shown, even when it does not fit beside the head (the line then wraps under its own text):
 * "+11 more" alone names nothing.
 */
function fitted(head: string, items: string[], width: number | undefined): string {
  if (width === undefined || items.length === 0) return head + items.join(', ');
  let line = head + items[0];
  for (let i = 1; i < items.length; i++) {
    const next = `, ${items[i]}`;
    const more = i + 1 < items.length ? `, +${items.length - i - 1} more` : '';
    if (visible(line + next + more) > width) return `${line}, +${items.length - i} more`;
    line += next;
  }
  return line;
}

/** The screen; on a terminal a line too long for it wraps under its own text, past the label. */
export async function renderStatus(r: StatusReport, look: StatusLook): Promise<string> {
  const lines = statusLines(r, look);
  const width = look.width;
  if (width === undefined || width <= LABEL + 10 || lines.every((l) => visible(l) <= width)) return `${lines.join('\n')}\n`;
  const { default: wrapAnsi } = await import('wrap-ansi');
  const out = lines.flatMap((line) => {
    if (visible(line) <= width) return [line];
    const cut = line.indexOf(stripVTControlCharacters(line).slice(0, LABEL).trimEnd()) + LABEL;
    const [first, ...rest] = wrapAnsi(line.slice(cut), width - LABEL, { hard: true }).split('\n');
    return [line.slice(0, cut) + first, ...rest.map((l) => ' '.repeat(LABEL) + l)];
  });
  return `${out.join('\n')}\n`;
}

function statusLines(r: StatusReport, look: StatusLook): string[] {
  const { paint, width } = look;
  const label = (s: string) => paint.bold(s.padEnd(LABEL));
  const lines: string[] = [];

  const runway =
    r.runwayDays === null
      ? 'no renewals due'
      : `runway ${(r.runwayDays < 3 ? paint.red : r.runwayDays < 7 ? paint.yellow : paint.green)(`${r.runwayDays} days`)} (${money(r.renewalPerDayUsd)} a day renews ${plural(r.units.active, 'active unit')})`;
  lines.push(`${label('Balance')}${money(r.balanceUsd)}, ${runway}`);

  const statuses = Object.entries(r.units.byStatus)
    .sort((a, b) => b[1] - a[1])
    .map(([s, n]) => `${n} ${escapeControl(s.toLowerCase())}`);
  const countries = Object.entries(r.units.byCountry)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([c, n]) => `${escapeControl(c)} ${n}`);
  const unitsHead = `${label('Units')}${r.units.total === 0 ? 'none' : statuses.join(', ')}`;
  lines.push(countries.length ? fitted(`${unitsHead}; active by country: `, countries, width) : unitsHead);

  if (r.customers?.length) {
    const each = r.customers.map((c) => `${escapeControl(c.customer)} ${plural(c.activeUnits, 'unit')}, ${money(c.spentLast30DaysUsd)}`);
    lines.push(fitted(`${label('Customers')}active units and spend in 30 days: `, each, width));
    // With prices set (customers set, default-markup), what each earned: its own line, so both fit.
    const earned = r.customers.filter((c) => c.marginLast30DaysUsd !== undefined);
    if (earned.length > 0) {
      const margins = earned.map((c) => `${escapeControl(c.customer)} ${money(c.marginLast30DaysUsd)}`);
      lines.push(fitted(`${label('Margin')}billed less cost in 30 days: `, margins, width));
    }
  }

  const soon = r.units.expiring.map((u) => {
    // A unit past its expiry (the server may not have marked it yet) says when, never a time left.
    const when = !look.relative
      ? (u.expiresAt ?? '-')
      : u.expiresIn > 0
        ? relativeTime(u.expiresIn)
        : endedText('expired', u.expiresAt, look.now);
    return `${escapeControl(u.proxyRef)} ${look.relative ? paint.yellow(when) : when}`;
  });
  const n = r.units.expiringWithin24h;
  lines.push(
    n === 0 ? `${label('Expiring')}none within 24 h` : fitted(`${label('Expiring')}${paint.yellow(`${n} within 24 h`)}: `, soon, width),
  );

  if (r.uptime === null)
    lines.push(`${label('Uptime')}${paint.dim('not shown: the uptime budget (10 a minute) is spent; try again in a minute')}`);
  else {
    const pct = r.uptime.uptimePercent;
    const colour = pct === null ? paint.dim : pct >= 99 ? paint.green : pct >= 95 ? paint.yellow : paint.red;
    const spark = sparkline(
      r.uptime.windows.map((w) => (w.uptimePercent === null ? null : w.uptimePercent / 100)),
      0.9,
    );
    lines.push(`${label('Uptime')}${colour(spark)} ${pct === null ? 'not measured' : percent(pct)} over the last day (6-hour steps)`);
  }

  const failed = r.webhook.failedLastDay;
  const hook = !r.webhook.enabled
    ? 'no webhook set'
    : failed === 0
      ? `${paint.green('no failed deliveries')} in 24 h`
      : `${paint.red(`${failed}${r.webhook.failedLastDayAtLeast ? '+' : ''} failed ${failed === 1 ? 'delivery' : 'deliveries'}`)} in 24 h; see proxyctl webhook log --status FAILED`;
  lines.push(`${label('Webhooks')}${hook}`);
  return lines;
}

/**
 * The report piped: one `key<TAB>value` line per value, the keys the JSON's own paths
 * (`units.byStatus.ACTIVE`), so `grep`, `cut -f2` and `awk` read it as they read `proxyctl me`
 * piped. A list item is keyed by what names it (`units.expiring.PRX-7.expiresAt`,
 * `customers.acme.activeUnits`), else by its place; null is "-", as in every piped table.
 */
export function statusLinesPiped(r: StatusReport): string {
  const lines: string[] = [];
  const key = (k: string) => k.replace(/[\t\r\n]+/g, ' ');
  const walk = (path: string, v: unknown, named?: string): void => {
    if (Array.isArray(v)) {
      v.forEach((item, i) => {
        const name = nameOf(item);
        walk(`${path}.${name?.[1] ?? i}`, item, name?.[0]);
      });
    } else if (v !== null && typeof v === 'object') {
      // The field that names the item is in its key already.
      for (const [k, sub] of Object.entries(v)) if (k !== named) walk(path ? `${path}.${k}` : k, sub);
    } else lines.push(`${key(path)}\t${cell(v).replace(/[\t\r\n]+/g, ' ')}`);
  };
  walk('', escapeDeep(r));
  return `${lines.join('\n')}\n`;
}

/** What names an item of a list in the report (a unit's ref, a customer's name): the field and its value. */
function nameOf(item: unknown): [string, string] | undefined {
  if (!item || typeof item !== 'object') return undefined;
  const o = item as Record<string, unknown>;
  for (const field of ['proxyRef', 'customer']) {
    const name = o[field];
    if (typeof name === 'string' && name !== '') return [field, name];
  }
  return undefined;
}
