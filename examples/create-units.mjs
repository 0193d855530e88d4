// Buys COUNT units in a pool from code, the way `proxyctl units create` does: paced, retried only
// where that cannot buy twice. Run it again with the key it printed to finish a batch for free.
//   PROXYCTL_BASE_URL=… PROXYCTL_API_KEY=… node create-units.mjs POOL PERIOD COUNT [IDEMPOTENCY_KEY]
import { createUnitsSafely, ResellerClient } from 'proxyctl';

const [poolId, period, count = '1', idempotencyKey] = process.argv.slice(2);
// The key, base URL, PROXYCTL_DEBUG and HTTPS_PROXY/NO_PROXY from the environment, as the CLI reads them.
const client = ResellerClient.fromEnv();

const before = await client.balance();
const result = await createUnitsSafely(client, { poolId, period, count: Number(count), idempotencyKey });
for (const item of result.items) {
  if (!item.ok) console.error(`#${item.index + 1} failed (${item.error.code}): ${item.error.message}`);
}
const spentUsd = Math.round((before - (await client.balance())) * 100) / 100;
console.log(JSON.stringify({ idempotencyKey: result.idempotencyKey, units: result.units.map((u) => u.proxyRef), spentUsd }));
process.exitCode = result.units.length === Number(count) ? 0 : 1;
