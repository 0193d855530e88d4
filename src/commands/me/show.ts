// `proxyctl me`: GET /me, the account snapshot.
import { getSnapshot } from '../../api/endpoints.js';
import { show, type Result } from '../../kit/action.js';
import type { Input } from './show.command.js';
import type { Context } from '../../context/index.js';
import { cell, money, percent, pricesText, withExtraFields, withSpinner, type Column } from '../../output/index.js';

export type { Snapshot } from '../../api/shapes.js';
import type { Snapshot } from '../../api/shapes.js';

async function fetchSnapshot(ctx: Context): Promise<Snapshot> {
  const api = await ctx.api();
  return withSpinner(ctx, 'Fetching account…', () => getSnapshot(api));
}

export const ACCOUNT_COLUMNS: Column<Snapshot>[] = [
  { header: 'balance', value: (a) => a.balanceUsd, format: (a, p) => p.bold(money(a.balanceUsd)) },
  { header: 'discount', value: (a) => a.discountPercent, format: (a) => percent(a.discountPercent) },
  {
    header: 'reseller',
    value: (a) => a.resellerEnabled,
    format: (a, p) => (a.resellerEnabled === false ? p.red('disabled') : a.resellerEnabled ? p.green('enabled') : '-'),
  },
];
const ACCOUNT_KEYS = ['balanceUsd', 'discountPercent', 'resellerEnabled'];

export function accountColumns(value: Snapshot): Column<Snapshot>[] {
  const known: Column<Snapshot>[] = [
    { header: 'email', value: (a) => a.email },
    ...ACCOUNT_COLUMNS,
    {
      header: 'units',
      value: (a) => a.units,
      format: (a) =>
        a.units && typeof a.units === 'object' ? `${cell(a.units.active)} active / ${cell(a.units.total)} total` : cell(a.units),
    },
    { header: 'prices', value: (a) => a.prices, format: (a) => pricesText(a.prices) },
    {
      header: 'webhook',
      value: (a) => a.webhook,
      format: (a, p) =>
        a.webhook?.url ? `${a.webhook.url} ${a.webhook.enabled ? p.green('(enabled)') : p.yellow('(disabled)')}` : p.dim('not set'),
    },
  ];
  const present = known.filter((c) => c.header !== 'email' || value.email !== undefined);
  return withExtraFields(present, ['email', ...ACCOUNT_KEYS, 'units', 'prices', 'webhook'], [value]);
}

export default async function handler({ ctx }: Input): Promise<Result> {
  const snapshot = await fetchSnapshot(ctx);
  return show(snapshot, { columns: accountColumns(snapshot) });
}
