// Commander's classes, typed by @commander-js/extra-typings (positionals and flags inferred from
// the declarations). The typings package re-exports these very classes at runtime; taking them
// from commander directly keeps it a build-time dependency and loads one package less per run.
import { Argument as PlainArgument, Command as PlainCommand, Option as PlainOption } from 'commander';
import type * as typed from '@commander-js/extra-typings';

export const Command = PlainCommand as unknown as typeof typed.Command;
export const Option = PlainOption as unknown as typeof typed.Option;
export const Argument = PlainArgument as unknown as typeof typed.Argument;
