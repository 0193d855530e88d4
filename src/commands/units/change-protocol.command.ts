import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';
import { allowIp, askedIfMissing, connFormat, password, protocol, username } from '../../kit/options.js';

const command = () =>
  new Command('change-protocol')
    .description('switch a unit between socks5, http and http_noauth (free)')
    .argument('<ref>', 'unit reference')
    .addOption(askedIfMissing(protocol('socks5, http, http_noauth (alias inject)')))
    .addOption(allowIp('the client IP for http_noauth (exactly one; asked in a terminal if left out)'))
    .addOption(username('new username for socks5/http (with --password)'))
    .addOption(password('new password for socks5/http (with --username)'))
    .addOption(connFormat());
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl', 'csv', 'conn'],
  examples: [
    'proxyctl units change-protocol PRX-123 --protocol http',
    'proxyctl units change-protocol PRX-123 --protocol inject --allow-ip 203.0.113.7',
  ],
  load: async () => (await import('./change-protocol.js')).default,
});
