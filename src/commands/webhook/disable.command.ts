import { Command } from '../commander.js';
import { defineCommand, type InputOf } from '../action.js';

const command = () =>
  new Command('disable')
    .description('stop deliveries (PATCH url=null); --remove also deletes the URL and secret')
    .option('--remove', 'delete the webhook configuration, URL and secret included');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  examples: ['proxyctl webhook disable', 'proxyctl webhook disable --remove'],
  load: async () => (await import('./disable.js')).default,
});
