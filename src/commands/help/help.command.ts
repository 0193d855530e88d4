import { Command } from '../../kit/commander.js';
import { defineCommand, type InputOf } from '../../kit/action.js';

/** `proxyctl help TOPIC`: the topics and what they are about (their text is in help.ts). */
export const TOPICS = {
  environment: 'environment variables proxyctl reads',
  'exit-codes': 'what each exit code means',
} as const;

const command = () =>
  new Command('help')
    .description(`help for a command, or a topic: ${Object.keys(TOPICS).join(', ')}`)
    .argument('[command...]', 'a command (e.g. units create) or a help topic');
export type Input = InputOf<typeof command>;

export default defineCommand({
  command,
  examples: ['proxyctl help units create', 'proxyctl help environment', 'proxyctl help exit-codes'],
  load: async () => (await import('./help.js')).default,
});
