import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () =>
  new Command('push').description("copy this machine's journal into the shared ledger (ledger-url), each debit once: safe to run again");
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json'],
  examples: ['proxyctl ledger push', 'proxyctl ledger push --json | jq .added'],
  load: async () => (await import('./push.js')).default,
});
