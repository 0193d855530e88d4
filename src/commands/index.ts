// Registers every command group. Each group's index.ts declares its commands, options and help;
// the code behind each command is a dynamic import.
import type { Command } from 'commander';
import type { Runtime } from './action.js';
import { registerCompletion } from './completion/index.js';
import { registerLogin } from './login/index.js';
import { registerProfiles } from './profiles/index.js';
import { registerAccount } from './me/index.js';
import { registerCatalogue } from './catalogue/index.js';
import { registerPools } from './pools/index.js';
import { registerRaw } from './api/index.js';
import { registerSandbox } from './sandbox/index.js';
import { registerUnits } from './units/index.js';
import { registerWebhook } from './webhook/index.js';

export function registerCommands(program: Command, rt: Runtime): void {
  registerLogin(program, rt);
  registerProfiles(program, rt);
  registerAccount(program, rt);
  registerCatalogue(program, rt);
  registerPools(program, rt);
  registerUnits(program, rt);
  registerWebhook(program, rt);
  registerRaw(program, rt);
  registerCompletion(program, rt);
  registerSandbox(program, rt);
}
