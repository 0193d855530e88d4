import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () => new Command('me').description('account snapshot: balance, discount, units, prices, webhook');
export type Input = InputOf<typeof command>;

/** `proxyctl me` runs the snapshot itself and groups uptime and username. */
export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl'],
  examples: ['proxyctl me', 'proxyctl me --json | jq .balanceUsd'],
  load: async () => (await import('./show.js')).default,
});
