// `proxyctl openapi`: GET /openapi.json, printed as it came.
import { getOpenapi } from '../../api/endpoints.js';
import type { Input } from './openapi.command.js';
import type { Result } from '../../kit/action.js';
import { shownBody } from './request.js';

export default async function handler({ ctx }: Input): Promise<Result> {
  const api = await ctx.api();
  return shownBody(ctx, await getOpenapi(api));
}
