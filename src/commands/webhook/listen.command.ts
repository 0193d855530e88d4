import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';
import { collect, port, secret } from '../../kit/options.js';

const command = () =>
  new Command('listen')
    .description('run a local receiver: verify, print and acknowledge deliveries, optionally relay them; runs until Ctrl-C (then exit 0)')
    .addOption(port('port to listen on (0: any free port)', '8484'))
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .addOption(
      secret('webhook secret; repeatable (default: read from the API, as webhook get shows it, and re-read after webhook set rotates it)'),
    )
    .option('--forward-to <url>', 'relay each valid delivery, exact body and X-Service-* headers, to this URL')
    .option(
      '--exec <cmd>',
      'run CMD (through the shell) once per new delivery, after answering: payload on stdin, PROXYCTL_EVENT, PROXYCTL_PROXY_REF, PROXYCTL_DELIVERY_ID (as webhook log shows it), PROXYCTL_ATTEMPT_ID, PROXYCTL_TEST=1 for a test delivery; 4 at a time',
    )
    .option('--on <event>', 'with --exec: only for this event (repeatable), e.g. unit.down', collect)
    .option(
      '--ledger',
      "enter the debits of verified unit.created and unit.extended deliveries in the account's ledger (proxyctl spend), each once",
    );
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'jsonl'],
  examples: [
    'proxyctl webhook listen',
    'proxyctl webhook listen --port 0 --forward-to http://localhost:3000/hooks',
    'proxyctl webhook listen -o jsonl --secret "$SECRET" | jq .event',
    `proxyctl webhook listen --on unit.down --exec 'proxyctl units swap "$PROXYCTL_PROXY_REF" --same-country --yes'`,
    'proxyctl webhook listen --ledger   # count purchases made outside proxyctl too',
  ],
  load: async () => (await import('./listen.js')).default,
});
