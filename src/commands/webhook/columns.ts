// The columns (tables) and fields (csv) shared by the webhook commands. JSON output never goes
// through these: it is the API's objects as they came.
import type { Column, Paint } from '../../output/index.js';
import { cell, clockTime } from '../../output/index.js';
import type { TestDelivery } from '../../api/shapes.js';
import type { WebhookConfig } from '../../webhooks/events.js';

/** "whsec_ab…(32 chars)": enough to tell two secrets apart, not enough to use one. */
export function maskSecret(secret: unknown): string {
  if (typeof secret !== 'string' || secret === '') return '-';
  return `${secret.slice(0, Math.min(8, Math.floor(secret.length / 4)))}…(${secret.length} chars)`;
}

export function configColumns(opts: { revealSecret: boolean }): Column<WebhookConfig>[] {
  return [
    { header: 'url', value: (c) => c.url },
    { header: 'enabled', value: (c) => c.enabled, format: (c, p) => (c.enabled ? p.green('yes') : p.yellow('no')) },
    {
      header: 'secret',
      value: (c) => (opts.revealSecret ? c.secret : maskSecret(c.secret)),
      // A secret is useless wrapped: on a terminal too narrow for it, hidden, pointing at where it is whole.
      whole: opts.revealSecret ? 'proxyctl webhook get --json' : undefined,
    },
  ];
}

export function paintStatus(status: unknown, p: Paint): string {
  const s = cell(status);
  if (s === 'DELIVERED') return p.green(s);
  if (s === 'FAILED') return p.red(s);
  if (s === 'PENDING') return p.yellow(s);
  return s;
}

export function attemptsOf(d: TestDelivery): string {
  return `${cell(d.attempts)}/${cell(d.maxAttempts)}`;
}

/** A delivery's columns: a log entry's, or the one `webhook test` created (whose id the API does not promise). */
export const deliveryColumns: Column<TestDelivery>[] = [
  { header: 'id', value: (d) => d.id, priority: 0 },
  { header: 'event', value: (d) => d.event },
  { header: 'status', value: (d) => d.status, format: (d, p) => paintStatus(d.status, p), priority: 0 },
  { header: 'attempts', value: attemptsOf, priority: 2 },
  { header: 'response', value: (d) => d.responseStatus, priority: 3 },
  { header: 'next attempt', value: (d) => d.nextAttemptAt, priority: 3 },
  { header: 'created', value: (d) => d.createdAt, priority: 4 },
  { header: 'last error', value: (d) => d.lastError, priority: 2 },
];

/**
 * The delivery log on a terminal: when each delivery was made, as `ls -l` shows a time (local, 12
 * characters), is kept longest after what tells deliveries apart; piped rows keep the ISO time.
 */
export function deliveryLogColumns(nowMs: number): Column<TestDelivery>[] {
  return deliveryColumns.map((c) =>
    c.header === 'created' ? { ...c, format: (d: TestDelivery) => clockTime(d.createdAt, false, nowMs), priority: 1 } : c,
  );
}

/** A delivery record's csv columns (spec 2.11), the same for every delivery. */
export const DELIVERY_FIELDS = [
  'id',
  'event',
  'url',
  'status',
  'attempts',
  'maxAttempts',
  'responseStatus',
  'lastError',
  'nextAttemptAt',
  'createdAt',
  'deliveredAt',
] as const;
