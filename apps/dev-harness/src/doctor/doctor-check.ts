// One check of `graphiti-harness doctor`: whether one thing memory needs works here, in a line, and
// when it does not, the one next step. Each check is a small function over what `doctor` read once.
import type { ConfigFileRead, ConfigResolution } from '@graphiti-memory/memory-node-storage';
import type { CommandContext } from '../cli/command-runner.js';

export interface DoctorCheck {
  /** Stable id for scripts: `node`, `config`, `endpoint`, `hooks.claude`, `outbox`, … */
  readonly id: string;
  readonly ok: boolean;
  /** One line: what was found. */
  readonly summary: string;
  /** The one next step when `ok` is false (a command to run, a file to fix). */
  readonly next?: string;
}

/** What every check may look at, read once by the command. */
export interface DoctorFacts {
  readonly context: CommandContext;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly home: string;
  readonly stateDirectory: string;
  /** The whole configuration (flags > env > project > user), or its problems. */
  readonly configuration: ConfigResolution;
  /** The user config file alone (consent lives there). */
  readonly userConfig: ConfigFileRead;
  readonly userConfigFile: string;
  /** `--endpoint`, else the configured endpoint (read leniently when the configuration is invalid); normalised. */
  readonly endpoint: string | undefined;
  /** The CLI's own version (the runner of its hooks should match it). */
  readonly cliVersion: string;
}

export function passed(id: string, summary: string): DoctorCheck {
  return { id, ok: true, summary };
}

export function failed(id: string, summary: string, next: string): DoctorCheck {
  return { id, ok: false, summary, next };
}
