import type { Command } from 'commander';
import type { CommandBody } from '../cli/command-runner.js';
import type { RawCommonOptions } from '../cli/common-options.js';

export interface RunSettings {
  /**
   * Fill options not given from the config files and environment (default true). Off for the
   * demo and bench (an in-process emulator by design) and the hook commands (their own config).
   */
  readonly configFiles?: boolean;
}

/** Runs a command body with its raw options; the program records the exit code. */
export type RunCommand = (raw: RawCommonOptions, body: CommandBody, settings?: RunSettings) => Promise<void>;

/** Adds one command to the program. */
export type CommandRegistrar = (program: Command, run: RunCommand) => void;
