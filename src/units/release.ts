// Releasing a unit, for every front door (`units release`, the agent's release_units): DELETE, sent
// once (a repeat is retried only when the first never left), and only an answer that says
// `removed: true` is a release.
import type { ApiClient } from '../api/client.js';
import { releaseUnit as deleteUnit } from '../api/endpoints.js';
import type { Removed } from '../api/shapes.js';
import { applied, notRemoved } from './not-applied.js';

/** One unit released, or the API's answer as the failure (exit 9) when it did not say `removed: true`. */
export async function releaseUnit(api: ApiClient, ref: string): Promise<Removed> {
  const res = await deleteUnit(api, ref);
  if (!applied(res.data, 'removed')) throw await notRemoved(api, ref, res.data, res.requestId);
  return res.data;
}
