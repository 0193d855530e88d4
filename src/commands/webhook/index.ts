import type { Command } from 'commander';
import { examples, lazyAction, type Runtime } from '../action.js';

const collect = (value: string, previous: string[]): string[] => [...previous, value];

export function registerWebhook(program: Command, rt: Runtime): void {
  const webhook = program
    .command('webhook')
    .description('configure, test, inspect and receive webhook deliveries')
    .addHelpText('after', examples('proxyctl webhook listen --forward-to http://localhost:3000/hooks', 'proxyctl webhook log --follow'));

  webhook
    .command('get')
    .description('show the webhook configuration (the secret is masked in tables, shown in JSON)')
    .addHelpText('after', examples('proxyctl webhook get', 'proxyctl webhook get --json | jq -r .secret'))
    .action(lazyAction(rt, () => import('./get.js')));

  webhook
    .command('set')
    .description('set the webhook URL (https; plain http only to this machine) and show the new secret once')
    .argument('<url>', 'receiver URL')
    .addHelpText(
      'after',
      examples('proxyctl webhook set https://hooks.example.com/proxy', 'proxyctl webhook set http://127.0.0.1:8484/ --json | jq -r .secret'),
    )
    .action(lazyAction(rt, () => import('./set.js')));

  webhook
    .command('disable')
    .description('stop deliveries (PATCH url=null); --remove also deletes the URL and secret')
    .option('--remove', 'delete the webhook configuration, URL and secret included')
    .addHelpText('after', examples('proxyctl webhook disable', 'proxyctl webhook disable --remove'))
    .action(lazyAction(rt, () => import('./disable.js')));

  webhook
    .command('test')
    .description('fire a sample unit.created event at the registered URL and show its delivery')
    .option('--wait <seconds>', 'how long to wait for the first attempt to finish (0: do not wait)', '10')
    .addHelpText('after', examples('proxyctl webhook test', 'proxyctl webhook test --json | jq .status'))
    .action(lazyAction(rt, () => import('./test.js')));

  webhook
    .command('log')
    .description('list deliveries, newest first; --follow prints new deliveries and changes as they happen')
    .option('--status <status>', 'PENDING, DELIVERED or FAILED')
    .option('--event <event>', 'event name, e.g. unit.created')
    .option('--page <n>', 'page number (from 1)')
    .option('--page-size <n>', 'deliveries per page (1-100, default 25)')
    .option('--all', 'every page')
    .option('-f, --follow', 'keep polling and print new deliveries and state changes until Ctrl-C (then exit 0)')
    .option('--interval <seconds>', 'with --follow: seconds between polls (min 1, default 2)')
    .addHelpText(
      'after',
      examples('proxyctl webhook log --status FAILED', 'proxyctl webhook log --follow', 'proxyctl webhook log --all --json > deliveries.json'),
    )
    .action(lazyAction(rt, () => import('./log.js')));

  webhook
    .command('verify')
    .description('check an X-Service-Signature against a raw body (file or stdin): exit 0 valid, 11 invalid, 2 malformed')
    .option('--secret <secret>', 'webhook secret; repeat for a rotation window (env PROXYCTL_WEBHOOK_SECRET)', collect, [])
    .requiredOption('--signature <value>', "the header value, 'sha256=<hex>'")
    .option('--payload-file <file>', 'file holding the exact raw body (default, or "-": stdin)')
    .addHelpText(
      'after',
      examples(
        "proxyctl webhook verify --secret \"$SECRET\" --signature 'sha256=4f…' --payload-file body.json",
        "printf '%s' \"$BODY\" | proxyctl webhook verify --secret \"$OLD\" --secret \"$NEW\" --signature \"$SIG\"",
      ),
    )
    .action(lazyAction(rt, () => import('./verify.js')));

  webhook
    .command('listen')
    .description('run a local receiver: verify, print and acknowledge deliveries, optionally relay them; runs until Ctrl-C (then exit 0)')
    .option('--port <n>', 'port to listen on (0: any free port)', '8484')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--secret <secret>', 'webhook secret; repeatable (default: read with GET /webhook, and re-read after webhook set rotates it)', collect, [])
    .option('--forward-to <url>', 'relay each valid delivery, exact body and X-Service-* headers, to this URL')
    .addHelpText(
      'after',
      examples(
        'proxyctl webhook listen',
        'proxyctl webhook listen --port 0 --forward-to http://localhost:3000/hooks',
        'proxyctl webhook listen -o jsonl --secret "$SECRET" | jq .event',
      ),
    )
    .action(lazyAction(rt, () => import('./listen.js')));
}
