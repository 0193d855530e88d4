import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () =>
  new Command('status').description('balance and runway, units, what expires, uptime and failed deliveries on one screen');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl'],
  examples: ['proxyctl status', 'proxyctl status --json | jq .runwayDays'],
  load: async () => (await import('./status.js')).default,
});
