// The unit shapes the commands use. An answer's type is its shape's (src/api/shapes.ts): only the
// fields proxyctl reads are typed and checked; everything else the server sends is kept and passed
// through verbatim in JSON output. CreateBody is what proxyctl sends.
export type { ExtendResult, Pool, Unit } from '../api/shapes.js';

export interface CreateBody {
  poolId: string;
  period: string;
  protocol?: string;
  credentials?: { username: string; password: string };
  allowedIps?: string[];
}
