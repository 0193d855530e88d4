import { Command, Option } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

const command = () =>
  new Command('login')
    .description('save a base URL and API key as a profile, after checking the key with the API')
    .option('--api-key-stdin', 'read the API key from stdin instead of prompting')
    .option('--insecure-storage', 'keep the key in the config file (0600) instead of the OS keyring')
    // A common guess, taken (hidden) only to be refused with the ways that work: commander's own
    // "unknown option '--api-key=sk_…'" would print the key back.
    .addOption(new Option('--api-key [key]').hideHelp());
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl'],
  examples: [
    'proxyctl login',
    'proxyctl login --profile work --base-url https://api.example.com',
    'printf %s "$KEY" | proxyctl login --base-url "$BASE_URL" --api-key-stdin',
  ],
  load: async () => (await import('./login.js')).default,
});
