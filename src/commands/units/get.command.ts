// `units get REF`: one unit, with its connection string. A verb in one file: the definition, and a
// `run` that imports what it uses only when it runs (so `--help` loads none of it).
import { defineCommand, show } from '../action.js';
import { Command } from '../commander.js';
import { connFormat } from '../options.js';
import type { Unit } from '../../units/types.js';

export default defineCommand({
  command: () => new Command('get').description('show one unit').argument('<ref>', 'unit reference, e.g. PRX-123').addOption(connFormat()),
  examples: ['proxyctl units get PRX-123', 'proxyctl units get PRX-123 -o conn', 'proxyctl units get PRX-123 --conn-format url'],
  async run({ args: [raw], flags, ctx }) {
    const [{ assertFormats }, { withConnFormat }, { parseRef }, { unitDetailView }, shapes] = await Promise.all([
      import('../../output/index.js'),
      import('../../output/conn.js'),
      import('../../units/validate.js'),
      import('../../units/view.js'),
      import('../../api/shapes.js'),
    ]);
    assertFormats(ctx, ['table', 'json', 'jsonl', 'csv', 'conn']);
    const view = withConnFormat(ctx, unitDetailView, flags.connFormat);
    const ref = parseRef(raw);
    const api = await ctx.api();
    const unit = await api.get(`/units/${encodeURIComponent(ref)}`, shapes.unit);
    await (await import('../completion/remember.js')).remember(ctx, { add: { units: [unit?.proxyRef] } });
    return show(unit, view);
  },
});
