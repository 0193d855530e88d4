// `proxyctl openapi`: GET /openapi.json, printed as it came.
import type { Input } from './openapi.command.js';
import type { Result } from '../../kit/action.js';
import { shownBody } from './request.js';
import * as shapes from '../../api/shapes.js';

export default async function handler({ ctx }: Input): Promise<Result> {
  const api = await ctx.api();
  return shownBody(ctx, await api.get('/openapi.json', shapes.openapi));
}
