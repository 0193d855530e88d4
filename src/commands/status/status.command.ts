import { Command } from '../commander.js';
import { defineCommand, type InputOf } from '../action.js';

const command = () =>
  new Command('status').description(
    'one screen: balance and runway, units by status and country, what expires within 24 h, uptime over the last day, failed webhook deliveries',
  );
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  examples: ['proxyctl status', 'proxyctl status --json | jq .runwayDays'],
  load: async () => (await import('./status.js')).default,
});
