// `proxyctl openapi`: GET /openapi.json, printed as it came.
import type { Input } from './openapi.command.js';
import { assertFormats } from '../../output/index.js';
import { printBody } from './request.js';
import * as shapes from '../../api/shapes.js';

export default async function openapi({ ctx }: Input): Promise<number> {
  assertFormats(ctx, ['table', 'json', 'jsonl']);
  const api = await ctx.api();
  printBody(ctx, await api.get('/openapi.json', shapes.openapi));
  return 0;
}
