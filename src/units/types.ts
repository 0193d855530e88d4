// The unit shapes the commands use. An answer's type is its shape's (src/api/shapes.ts): only the
// fields proxyctl reads are typed and checked; everything else the server sends is kept and passed
// through verbatim in JSON output. CreateBody is what proxyctl sends.
import type { ExtendResult } from '../api/shapes.js';
export type { ExtendResult, Pool, Unit } from '../api/shapes.js';

/** An extension that was applied: the answer with `extended` checked true and its ref filled in (what extendSafely returns). */
export type Extended = ExtendResult & { proxyRef: string; extended: true };

export interface CreateBody {
  poolId: string;
  period: string;
  protocol?: string;
  credentials?: { username: string; password: string };
  allowedIps?: string[];
}
