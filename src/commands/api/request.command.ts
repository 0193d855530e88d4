import { Command, Option } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';
import { collect } from '../../kit/options.js';

const command = () =>
  new Command('api')
    .description('raw authenticated request to the API, like gh api; prints the response body')
    .usage('[METHOD] PATH [options]')
    .argument('<path-or-method>', 'path below /api/reseller/v1, e.g. /units?page=2; or the method, then the path')
    .argument('[path]', 'the path, when the method comes first (METHOD PATH, the form before -X)')
    .addOption(
      new Option(
        '-X, --method <method>',
        'GET, POST, PUT, PATCH or DELETE (default: GET, or POST with fields or a body; a purchase or an extension needs -X POST)',
      ),
    )
    .addOption(
      new Option('-f, --raw-field <key=value>', 'string field (repeatable): in the query string for GET, else in a JSON body').argParser(
        collect,
      ),
    )
    .addOption(
      new Option(
        '-F, --field <key=value>',
        'typed field (repeatable): true, false, null and numbers as JSON; @file or @- reads the value',
      ).argParser(collect),
    )
    .option('--input <file>', 'the request body as it is, from a file or - for stdin (fields then go in the query string)')
    .option('--data <json>', 'the request body: JSON text, @file, or @- for stdin (fields then go in the query string)')
    .addOption(new Option('-H, --header <header>', "extra request header 'Name: value' (repeatable; never the API key)").argParser(collect))
    .option('--paginate', 'GET every page of a list and print them as one {"data": [...]}')
    .option('-i, --include', 'print the status line and the response headers before the body');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl'],
  examples: [
    'proxyctl api /me',
    'proxyctl api /units -f status=ACTIVE -F pageSize=200 --paginate > units.json',
    'proxyctl api -X PATCH /units/PRX-12 -f description="scraper 3"',
    'proxyctl api -X POST /units -F poolId=US-12 -f period=7d -H "Idempotency-Key: $(uuidgen)" --yes   # priced first',
    'proxyctl api POST /units --input body.json --yes',
    'proxyctl api -i /account',
    'proxyctl api GET /me   # the METHOD PATH form still works',
  ],
  load: async () => (await import('./request.js')).default,
});
