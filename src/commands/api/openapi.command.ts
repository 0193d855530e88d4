import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () => new Command('openapi').description("print the server's OpenAPI description");
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl'],
  examples: ['proxyctl openapi > openapi.json', 'proxyctl openapi | jq ".paths | keys"'],
  load: async () => (await import('./openapi.js')).default,
});
