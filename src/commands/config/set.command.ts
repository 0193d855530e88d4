import { Command } from '../commander.js';
import { defineCommand, type InputOf } from '../action.js';

const command = () =>
  new Command('set')
    .description('store a setting with the profile (keys: check-target)')
    .argument('<key>', 'setting name: check-target')
    .argument('<value>', 'its value (check-target: an http(s) URL)');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  examples: [
    'proxyctl config set check-target https://example.com/',
    'proxyctl --profile work config set check-target http://10.0.0.5/echo',
  ],
  load: async () => (await import('./set.js')).default,
});
