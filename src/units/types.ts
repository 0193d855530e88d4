// The unit shapes the commands use. Only the fields proxyctl reads are typed; everything else
// the server sends is kept and passed through verbatim in JSON output.
export interface Unit {
  proxyRef: string;
  poolId?: string;
  provider?: string;
  ip?: string;
  port?: number;
  protocol?: string;
  credentials?: { username: string; password: string } | null;
  status?: string;
  expiresAt?: string;
  expiresIn?: number;
  allowedIps?: string[];
  [k: string]: unknown;
}

export interface CreateBody {
  poolId: string;
  period: string;
  protocol?: string;
  credentials?: { username: string; password: string };
  allowedIps?: string[];
}

export interface ExtendResult {
  proxyRef: string;
  expiresAt: string;
  extended: boolean;
  [k: string]: unknown;
}

/**
 * A pool as GET /pools lists it and GET /pools/{id} returns it: the one pool shape of the
 * `pools` commands, the guided create and the purchase quote. Prices may also come beside the
 * list (one schedule for every pool) instead of on each pool.
 */
export interface Pool {
  poolId: string;
  provider?: string;
  country?: string;
  state?: string | null;
  rotation?: string | null;
  available?: boolean;
  prices?: Record<string, number>;
  [k: string]: unknown;
}
