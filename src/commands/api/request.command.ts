import { Command } from '../commander.js';
import { defineCommand, type InputOf } from '../action.js';

const command = () =>
  new Command('api')
    .description('raw authenticated request to the API; prints the response body')
    .argument('<method>', 'GET, POST, PUT, PATCH or DELETE')
    .argument('<path>', 'path below /api/reseller/v1, e.g. /units?page=2')
    .option('--data <json>', 'request body: JSON text, @file, or @- for stdin');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  examples: [
    'proxyctl api GET /me',
    'proxyctl api PATCH /units/PRX-12 --data \'{"description":"scraper 3"}\'',
    'proxyctl api POST /units --data @body.json',
  ],
  load: async () => (await import('./request.js')).default,
});
