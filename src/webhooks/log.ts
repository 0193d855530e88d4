// The delivery log's filters, for every front door (`webhook log`, the agent's list_deliveries):
// checked here, before any request.
import type { Query } from '../api/client.js';
import { UsageError } from '../errors.js';
import { DELIVERY_STATUSES } from './events.js';

/** The delivery log's largest page (spec §8). */
export const MAX_LOG_PAGE_SIZE = 100;

/** A delivery status in any case (failed is FAILED), or exit 2 naming the ones there are. */
export function parseDeliveryStatus(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const status = raw.toUpperCase();
  if (!(DELIVERY_STATUSES as readonly string[]).includes(status))
    throw new UsageError(`--status must be one of ${DELIVERY_STATUSES.join(', ')}, got "${raw}"`);
  return status;
}

/** The log's query: its filters and the part of it read. */
export function deliveryQuery(
  f: { status?: string | undefined; event?: string | undefined },
  paging: { page?: number | undefined; pageSize?: number | undefined },
): Query {
  return { status: f.status, event: f.event, page: paging.page, pageSize: paging.pageSize };
}
