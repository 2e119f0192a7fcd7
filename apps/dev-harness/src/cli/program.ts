// The commander program: every command, help (also what a bare `graphiti-harness` prints), "did
// you mean" for a mistyped command, and the exit codes every command shares.
import path from 'node:path';
import { resolveMemoryConfigSync } from '@graphiti-memory/memory-node-storage';
import { Command, CommanderError, Help, type Option } from 'commander';
import picocolors from 'picocolors';
import { registerCommands } from '../commands/register-commands.js';
import { supportsColor } from '../terminal/terminal.js';
import { runCommand, type RunnerSettings } from './command-runner.js';
import { CONFIGURED_ENDPOINT_MARK } from './common-options.js';
import { harnessPackage } from './harness-package.js';
import { EXIT_CODES_HELP, ExitCode } from './harness-errors.js';

export const PROGRAM_NAME = 'graphiti-harness';

/**
 * Runs `graphiti-harness` with `argv` (without the node and script paths) and resolves to the exit
 * code: 0 ok, 1 failure, 2 bad usage. Never throws and never exits the process.
 */
export async function runHarness(argv: readonly string[], settings: RunnerSettings): Promise<ExitCode> {
  const { terminal } = settings;
  let exitCode: ExitCode = ExitCode.ok;
  const program = new Command(PROGRAM_NAME)
    .description(
      'The Graphiti Memory packages in a terminal: ingest, recall, promote and inspect memory in a Graphiti knowledge graph.\nStart with `graphiti-harness setup`; `graphiti-harness doctor` says whether memory works here.',
    )
    .version(harnessPackage().version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .helpCommand('help [command]', 'show help for a command')
    .addHelpText(
      'after',
      [
        '',
        'Consent: running a command against --endpoint URL is your consent to send that command\'s data there;',
        'it is recorded for exactly that endpoint (in --state-dir) and never carries over to another one.',
        'Secrets (tokens, passwords) are redacted or refused before anything is sent.',
        '',
        'Examples:',
        '  graphiti-harness setup --endpoint http://localhost:8000',
        '  graphiti-harness doctor',
        '  graphiti-harness demo                     # the whole loop on an in-process emulator, offline',
        '  graphiti-harness ingest session.jsonl --wait --endpoint http://localhost:8000',
        '  graphiti-harness recall "which package manager do we use" --json',
      ].join('\n'),
    )
    // Under every command's help, subcommands' too.
    .addHelpText('afterAll', `\n${EXIT_CODES_HELP}`)
    .showSuggestionAfterError(true)
    .configureHelp({
      // `--endpoint`'s default as it really is here: read only when help is shown.
      optionDescription(this: Help, option: Option): string {
        const text = Help.prototype.optionDescription.call(this, option);
        return text.includes(CONFIGURED_ENDPOINT_MARK) ? text.replace(CONFIGURED_ENDPOINT_MARK, configuredEndpointNote(settings)) : text;
      },
    })
    .showHelpAfterError(`(run ${PROGRAM_NAME} --help for usage)`)
    .configureOutput({
      writeOut: (text) => terminal.stdout.write(text),
      writeErr: (text) => terminal.stderr.write(text),
      outputError: (text, write) => {
        const colors = picocolors.createColors(supportsColor(terminal.stderr, terminal.env));
        write(colors.red(text));
      },
    })
    .exitOverride();
  registerCommands(program, async (raw, body, runSettings) => {
    exitCode = await runCommand(settings, raw, body, runSettings);
  });
  // Every subcommand (nested ones too: `hooks install`) reports usage errors through the same
  // override (exit 2, never process.exit).
  const inherit = (parent: Command): void => {
    for (const command of parent.commands) {
      command.copyInheritedSettings(parent);
      inherit(command);
    }
  };
  inherit(program);

  // No command: the help, on stdout, as a successful answer (the demo is `graphiti-harness demo`).
  if (argv.length === 0) {
    program.outputHelp();
    return ExitCode.ok;
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    throw error;
  }
  return exitCode;
}

/** ` (now: URL, from the user config)`, or ` (none configured)`, for `--endpoint`'s help. */
function configuredEndpointNote(settings: RunnerSettings): string {
  const { terminal } = settings;
  try {
    const resolution = resolveMemoryConfigSync({ workspaceFolder: path.resolve(terminal.cwd), env: terminal.env, cwd: terminal.cwd });
    if (!resolution.ok) return ' (the configuration is invalid now: graphiti-harness doctor names the problem)';
    const { endpoint } = resolution.config.settings;
    if (endpoint === undefined) return ' (none configured)';
    return ` (now ${endpoint}, from ${ORIGIN_NAMES[resolution.config.origins.endpoint]})`;
  } catch {
    return '';
  }
}

const ORIGIN_NAMES: Readonly<Record<string, string>> = { flag: 'the command line', env: 'the environment', project: 'the project file', user: 'the user config', default: 'the defaults' };
