import type { Command } from 'commander';
import type { RunCommand } from './command-registrar.js';
import { registerHealthCommand } from './health-command.js';
import { registerSmokeCommand } from './smoke-command.js';

/** Adds every command, in the order `--help` lists them. */
export function registerCommands(program: Command, run: RunCommand): void {
  for (const register of [registerHealthCommand, registerSmokeCommand]) register(program, run);
}
