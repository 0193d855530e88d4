import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';
import { secret } from '../../kit/options.js';

const command = () =>
  new Command('verify')
    .description('check an X-Service-Signature against a raw body (file or stdin): exit 0 valid, 11 invalid, 2 malformed')
    .addOption(secret('webhook secret; repeat for a rotation window (env PROXYCTL_WEBHOOK_SECRET)'))
    .requiredOption('--signature <value>', "the header value, 'sha256=<hex>'")
    .option('--payload-file <file>', 'file holding the exact raw body (default, or "-": stdin)');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl'],
  examples: [
    'proxyctl webhook verify --secret "$SECRET" --signature "$SIG" --payload-file delivery.json',
    'printf \'%s\' "$BODY" | proxyctl webhook verify --secret "$OLD" --secret "$NEW" --signature "$SIG"',
  ],
  load: async () => (await import('./verify.js')).default,
});
