import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () =>
  new Command('status').description(
    'which store the ledger uses, its schema version and whether it can be reached (exit 9 when a shared ledger cannot)',
  );
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json'],
  examples: ['proxyctl ledger status', 'proxyctl ledger status --json | jq .reachable'],
  load: async () => (await import('./status.js')).default,
});
