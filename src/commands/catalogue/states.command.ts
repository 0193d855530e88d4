import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';
import { country } from '../../kit/options.js';

const command = () =>
  new Command('states')
    .description('states/regions with pools, optionally in one country')
    .addOption(country('ISO 3166-1 alpha-2 country code, e.g. US'));
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  formats: ['table', 'json', 'jsonl', 'csv'],
  examples: ['proxyctl states', 'proxyctl states --country us'],
  load: async () => (await import('./states.js')).default,
});
