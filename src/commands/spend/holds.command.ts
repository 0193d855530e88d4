import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () =>
  new Command('holds')
    .description('the budget holds that count against max-spend-per-day: runs at work, and killed runs not yet settled')
    .option('--drop <id>', 'stop counting the hold of a run that is gone (frees budget, not money; check what it did first)');
export type Input = InputOf<typeof command>;

/** `proxyctl spend holds`: beside `spend`'s own action, as `me uptime` is beside `me`. */
export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl', 'csv'],
  examples: [
    'proxyctl spend holds',
    'proxyctl spend holds --json | jq "map(select(.state != \\"live\\"))"',
    // Killed renewals, once their units' expiries are checked (a killed purchase batch is settled by resuming its key).
    `proxyctl spend holds --jq '.[] | select(.state == "killed" and .operation == "extend") | .id' | xargs -r -n1 proxyctl spend holds --drop`,
  ],
  load: async () => (await import('./holds.js')).default,
});
