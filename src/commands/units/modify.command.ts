import { Command } from '../commander.js';
import { defineCommand, type InputOf } from '../action.js';
import { allowIp, password, username } from '../options.js';

const command = () =>
  new Command('modify')
    .description("change a unit's description, credentials or IP whitelist")
    .argument('<ref>', 'unit reference')
    .option('--description <text>', 'free text kept with the unit')
    .addOption(allowIp('whitelisted IP (repeat; replaces the list; http_noauth units)'))
    .addOption(username('new username (with --password)'))
    .addOption(password('new password (with --username)'));
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl'],
  examples: [
    'proxyctl units modify PRX-123 --description "client A"',
    'proxyctl units modify PRX-123 --allow-ip 203.0.113.7 --allow-ip 203.0.113.8',
  ],
  load: async () => (await import('./modify.js')).default,
});
