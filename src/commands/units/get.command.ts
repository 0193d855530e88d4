// `units get REF`: one unit, with its connection string. A verb in one file: the definition, and a
// `run` that imports what it uses only when it runs (so `--help` loads none of it).
import { defineCommand, show } from '../action.js';
import { Command } from '../commander.js';
import type { Unit } from '../../units/types.js';

export default defineCommand({
  command: () => new Command('get').description('show one unit').argument('<ref>', 'unit reference, e.g. PRX-123'),
  examples: ['proxyctl units get PRX-123', 'proxyctl units get PRX-123 -o conn'],
  async run({ args: [raw], ctx }) {
    const [{ assertFormats }, { parseRef }, { unitDetailView }, shapes] = await Promise.all([
      import('../../output/index.js'),
      import('../../units/validate.js'),
      import('../../units/view.js'),
      import('../../api/shapes.js'),
    ]);
    assertFormats(ctx, ['table', 'json', 'jsonl', 'csv', 'conn']);
    const ref = parseRef(raw);
    const api = await ctx.api();
    const unit = await api.get<Unit>(`/units/${encodeURIComponent(ref)}`, shapes.unit);
    await (await import('../completion/remember.js')).remember(ctx, { add: { units: [unit?.proxyRef] } });
    return show(unit, unitDetailView);
  },
});
