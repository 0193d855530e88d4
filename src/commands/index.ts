// Registers every command group. Each group's index.ts declares its commands, options and help;
// the code behind each command is a dynamic import.
import type { Command } from 'commander';
import type { Runtime } from './action.js';
import { registerCompletion } from './completion/index.js';
import { registerSandbox } from './sandbox/index.js';
import { registerUnits } from './units/index.js';

export function registerCommands(program: Command, rt: Runtime): void {
  registerUnits(program, rt);
  registerCompletion(program, rt);
  registerSandbox(program, rt);
}
