import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';
import { all, limit, page, pageSize } from '../../kit/options.js';

const command = () =>
  new Command('log')
    .description('list every delivery, newest first (or --limit N of them); --follow prints new deliveries and changes as they happen')
    .option('--status <status>', 'PENDING, DELIVERED or FAILED')
    .option('--event <event>', 'event name, e.g. unit.created')
    .addOption(limit())
    .addOption(page())
    .addOption(pageSize('only one page of this many deliveries, 1 to 100'))
    .addOption(all())
    .option('-f, --follow', 'keep polling and print new deliveries and state changes until Ctrl-C (then exit 0)')
    .option('--interval <seconds>', 'with --follow: seconds between polls (min 1, default 2)');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  // --follow streams one line (or JSON line) per change, so nothing that needs the whole list.
  formats: (flags) => (flags.follow ? ['table', 'jsonl'] : ['table', 'json', 'jsonl', 'csv']),
  examples: [
    'proxyctl webhook log --status FAILED',
    'proxyctl webhook log --follow',
    'proxyctl webhook log --limit 20',
    'proxyctl webhook log --json > deliveries.json',
  ],
  load: async () => (await import('./log.js')).default,
});
