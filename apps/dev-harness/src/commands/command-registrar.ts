import type { Command } from 'commander';
import type { CommandBody } from '../cli/command-runner.js';
import type { RawCommonOptions } from '../cli/common-options.js';

/** Runs a command body with its raw options; the program records the exit code. */
export type RunCommand = (raw: RawCommonOptions, body: CommandBody) => Promise<void>;

/** Adds one command to the program. */
export type CommandRegistrar = (program: Command, run: RunCommand) => void;
