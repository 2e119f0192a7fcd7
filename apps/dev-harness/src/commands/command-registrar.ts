import type { Command } from 'commander';
import type { CommandBody } from '../cli/command-runner.js';
import type { RawCommonOptions } from '../cli/common-options.js';

export interface RunSettings {
  /**
   * Fill options not given from the config files and environment (default true). Off for the
   * demo and bench (an in-process emulator by design) and the hook commands (their own config).
   */
  readonly configFiles?: boolean;
  /**
   * A user config.json with bad values does not stop the command: its valid values apply, each
   * bad one is ignored and named on stderr (forget, pending, audit, outbox, doctor, hooks
   * uninstall must work whatever the configuration says). Default: a bad file is a usage error.
   */
  readonly salvageConfig?: boolean;
}

/** Runs a command body with its raw options; the program records the exit code. */
export type RunCommand = (raw: RawCommonOptions, body: CommandBody, settings?: RunSettings) => Promise<void>;

/** Adds one command to the program. */
export type CommandRegistrar = (program: Command, run: RunCommand) => void;
