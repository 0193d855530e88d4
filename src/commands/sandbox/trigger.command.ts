import { Command, Option } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';
import { pool, WHICH_SANDBOX } from '../../kit/options.js';

const command = () =>
  new Command('trigger')
    .description(
      'fire an operator event (unit.down, usage.warning, usage.throttled, server.down, server.ip_changed, …) on a running sandbox; unit.up and server.up restore downed proxies',
    )
    .argument('<event>', 'event name')
    .option('--unit <ref>', 'proxyRef of the unit concerned')
    .addOption(pool('poolId of the server concerned (server.* events)'))
    .addOption(new Option('--reason <reason>', 'unit.down: why').choices(['quota_exceeded', 'server_unreachable']))
    .addOption(new Option('--kind <kind>', 'usage.warning kind: throttle (80%) or delete (75%)').choices(['throttle', 'delete']))
    .option('--new-ip <ip>', 'server.ip_changed: the new address')
    .option('--data <json>', 'extra fields merged into the event data')
    .addHelpText('after', WHICH_SANDBOX);
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  // No formats: a helper for tests and demos, it prints JSON with --json and its own text otherwise.
  examples: [
    'proxyctl sandbox trigger unit.down --unit PRX-1 --reason quota_exceeded',
    'proxyctl sandbox trigger server.down --pool US-11',
    'proxyctl sandbox trigger unit.up --unit PRX-1',
  ],
  load: async () => (await import('./trigger.js')).default,
});
