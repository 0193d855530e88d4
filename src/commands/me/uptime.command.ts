import { Command, Option } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () =>
  new Command('uptime')
    .description('uptime of your units over a window (default: the last 24 hours)')
    .addOption(new Option('--day <n>', 'the last N days, 1-30').conflicts(['from', 'to']))
    .option('--from <iso>', 'window start, ISO 8601')
    .option('--to <iso>', 'window end, ISO 8601 (clamped to now)');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl', 'csv'],
  examples: [
    'proxyctl me uptime',
    'proxyctl me uptime --day 7',
    'proxyctl me uptime --from 2026-01-01T00:00:00Z --to 2026-01-08T00:00:00Z --json',
  ],
  load: async () => (await import('./uptime.js')).default,
});
