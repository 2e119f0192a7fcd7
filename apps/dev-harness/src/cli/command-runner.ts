// Runs one command body with its options resolved, its resources closed afterwards (bounded, so a
// hanging server cannot hold the process), and every failure mapped to a message and an exit code.
import { assertStateFolderOurs, DamagedStateFileError, StateFolderRefusal, storageFaultOf, type IgnoredProjectKey, type ResolvedMemoryConfig } from '@graphiti-memory/memory-node-storage';
import { Output } from '../terminal/output.js';
import type { Terminal } from '../terminal/terminal.js';
import { resolveCommonOptions, type CommonOptions, type RawCommonOptions } from './common-options.js';
import { configureOptions } from './config-defaults.js';
import { ExitCode, HarnessError, UsageError } from './harness-errors.js';

export interface CommandContext {
  readonly terminal: Terminal;
  readonly options: CommonOptions;
  /**
   * The configuration this command runs with: flags > env > project > user > defaults, each value
   * with its origin (flags and defaults only for commands run with `configFiles: false`). Turn it
   * into memory-core's settings with memory-node-storage's `memorySettingsFor`.
   */
  readonly configuration: ResolvedMemoryConfig;
  readonly output: Output;
  /** Registers cleanup, run in reverse order when the command ends (also on failure). */
  defer(cleanup: () => unknown): void;
}

/** A command body: resolves to its exit code (0 or 1; usage errors are thrown as UsageError). */
export type CommandBody = (context: CommandContext) => Promise<ExitCode>;

export interface RunnerSettings {
  readonly terminal: Terminal;
  /** Overrides the default state folder (tests). */
  readonly defaultStateDir?: string;
}

const CLEANUP_BOUND_MS = 5_000;

/** Resolves options, runs `body`, prints failures; never throws. */
export async function runCommand(
  settings: RunnerSettings,
  raw: RawCommonOptions,
  body: CommandBody,
  runSettings: { readonly configFiles?: boolean; readonly salvageConfig?: boolean } = {},
): Promise<ExitCode> {
  const { terminal } = settings;
  const json = raw.json === true;
  let output = new Output(terminal, json, raw.color !== false);
  const cleanups: Array<() => unknown> = [];
  let exitCode: ExitCode;
  try {
    const configured = await configureOptions(raw, { cwd: terminal.cwd, env: terminal.env }, runSettings.configFiles === false ? 'flags' : 'all', {
      salvage: runSettings.salvageConfig === true,
    });
    const options = resolveCommonOptions(configured.raw, {
      cwd: terminal.cwd,
      env: terminal.env,
      ...(settings.defaultStateDir === undefined ? {} : { defaultStateDir: settings.defaultStateDir }),
    });
    output = new Output(terminal, options.json, options.colorAllowed);
    warnIgnored(output, configured.configuration.ignored, configured.configuration.files.user);
    // A state folder another user owns (or a link) is never used: every command stops, saying whose it is.
    await assertStateFolderOurs(options.stateDir);
    exitCode = await body({ terminal, options, configuration: configured.configuration, output, defer: (cleanup) => cleanups.push(cleanup) });
  } catch (error) {
    exitCode = reportFailure(output, error);
  } finally {
    await runCleanups(cleanups, output);
  }
  return exitCode;
}

/** Names, once per command, what of a config file was not applied, and why (never silently dropped). */
function warnIgnored(output: Output, ignored: readonly IgnoredProjectKey[], userFile: string): void {
  const byFile = new Map<string, { keys: string[]; untrusted: boolean }>();
  for (const entry of ignored) {
    const known = byFile.get(entry.file) ?? { keys: [], untrusted: false };
    // The trust hint is said once per file, not once per key.
    const why = entry.why.replace(/; ignored until you trust this file \(.*\)$/, '');
    known.keys.push(entry.key === '*' ? `the whole file (${why})` : `${entry.key} (${why})`);
    known.untrusted ||= why !== entry.why;
    byFile.set(entry.file, known);
  }
  for (const [file, { keys, untrusted }] of byFile) {
    const next =
      file === userFile
        ? 'running with the rest of it and the defaults; fix the file for every other command'
        : `${untrusted ? `\`graphiti-harness config trust ${file}\` trusts it; ` : ''}\`graphiti-harness config show\` lists what applies`;
    output.warn(`${file}: ignored ${keys.join('; ')} — ${next}`);
  }
}

function reportFailure(output: Output, error: unknown): ExitCode {
  if (error instanceof UsageError) {
    output.error(error.message, 'Run with --help for usage.');
    if (!output.wroteResult) output.result({ ok: false, error: { message: error.message, usage: true } });
    return ExitCode.usage;
  }
  if (error instanceof HarnessError) {
    output.error(error.message, error.hint);
    if (!output.wroteResult) output.result({ ok: false, error: { message: error.message, ...error.details } });
    return ExitCode.failure;
  }
  if (error instanceof DamagedStateFileError) {
    output.error(error.message);
    if (!output.wroteResult) output.result({ ok: false, error: { message: error.message, code: 'damaged-state-file', path: error.filePath } });
    return ExitCode.failure;
  }
  if (error instanceof StateFolderRefusal) {
    output.error(error.message);
    if (!output.wroteResult) output.result({ ok: false, error: { message: error.message, code: 'state-folder-refused', path: error.folder } });
    return ExitCode.failure;
  }
  // A disk that refused a write (full, read-only, permissions) is the machine's, not a bug: named.
  const fault = storageFaultOf(error);
  if (fault !== undefined) {
    output.error(fault.message, 'Run the command again once the state folder can be written.');
    if (!output.wroteResult) output.result({ ok: false, error: { message: fault.message, code: fault.code, path: fault.path } });
    return ExitCode.failure;
  }
  const message = error instanceof Error ? error.message : String(error);
  output.error(`unexpected failure: ${message}`, 'This is a bug in the harness; please report it with the command you ran.');
  if (error instanceof Error && error.stack !== undefined && output.terminal.env['GRAPHITI_HARNESS_DEBUG'] === '1') {
    output.terminal.stderr.write(`${error.stack}\n`);
  }
  if (!output.wroteResult) output.result({ ok: false, error: { message } });
  return ExitCode.failure;
}

async function runCleanups(cleanups: Array<() => unknown>, output: Output): Promise<void> {
  for (const cleanup of cleanups.reverse()) {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        Promise.resolve().then(cleanup),
        new Promise((resolve) => {
          timer = setTimeout(resolve, CLEANUP_BOUND_MS);
          timer.unref();
        }),
      ]);
    } catch (error) {
      output.warn(`cleanup failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      clearTimeout(timer);
    }
  }
}
