import { Argument, type Command } from 'commander';
import { examples, lazyAction, type Runtime } from '../action.js';

export function registerRaw(program: Command, rt: Runtime): void {
  program
    .command('api')
    .description('raw authenticated request to the API; prints the response body')
    .addArgument(new Argument('<method>', 'GET, POST, PUT, PATCH or DELETE'))
    .addArgument(new Argument('<path>', 'path below /api/reseller/v1, e.g. /units?page=2'))
    .option('--data <json>', 'request body: JSON text, @file, or @- for stdin')
    .addHelpText(
      'after',
      examples('proxyctl api GET /me', 'proxyctl api PATCH /units/PRX-12 --data \'{"description":"scraper 3"}\'', 'proxyctl api POST /units --data @body.json'),
    )
    .action(lazyAction(rt, () => import('./request.js')));
  program
    .command('openapi')
    .description("print the server's OpenAPI description")
    .addHelpText('after', examples('proxyctl openapi > openapi.json', 'proxyctl openapi | jq ".paths | keys"'))
    .action(lazyAction(rt, () => import('./openapi.js')));
}
