import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';
import { allowIp, connFormat, descriptionContains, password, pool, username } from '../../kit/options.js';

const command = () =>
  new Command('modify')
    .description("change units' description, customer tag, credentials or IP whitelist: named, piped (-) or selected")
    .argument(
      '[refs...]',
      'unit references; - reads them from stdin (one or more per line); or select with --pool, --tagged, --description-contains',
    )
    .option('--description <text>', 'free text kept with the unit')
    .option('--customer <name>', 'tag for this customer (customer=NAME in the description; the rest of the text is kept)')
    .addOption(allowIp('whitelisted IP (repeat; replaces the list; http_noauth units)'))
    .addOption(username('new username (with --password)'))
    .addOption(password('new password (with --username)'))
    .option(
      '--regenerate-password',
      "a new strong password for each unit, made here (never on the command line), printed once with the unit's connection (-o conn works)",
    )
    .addOption(pool('instead of refs: every active unit of this pool'))
    .option('--tagged <name>', 'instead of refs: every active unit tagged for exactly this customer (customer=NAME in the description)')
    .addOption(
      descriptionContains(
        'instead of refs: every active unit whose description contains this text, in any case (a substring, so acme also matches customer=acme-corp: select a customer with --tagged; --customer sets the tag)',
      ),
    )
    .addOption(connFormat());
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  // New passwords print with their units, as connection lines too.
  formats: (flags) => (flags.regeneratePassword ? ['table', 'json', 'jsonl', 'csv', 'conn'] : ['table', 'json', 'jsonl', 'csv']),
  examples: [
    'proxyctl units modify PRX-123 --description "client A"',
    'proxyctl units modify PRX-3 --allow-ip 203.0.113.7 --allow-ip 203.0.113.8   # an inject (no-auth) unit',
    'proxyctl units modify PRX-1 PRX-2 PRX-3 --customer acme',
    'proxyctl units modify --pool US-12 --customer acme',
    'proxyctl units modify --tagged acme --regenerate-password --conn-format url > acme-new.txt',
    'proxyctl units list --description-contains "batch 7" -o json | jq -r ".[].proxyRef" | proxyctl units modify - --customer acme',
  ],
  load: async () => (await import('./modify.js')).default,
});
