// The commander program: every command, the default command, and exit codes for bad usage.
import { Command, CommanderError } from 'commander';
import picocolors from 'picocolors';
import { registerCommands } from '../commands/register-commands.js';
import { supportsColor } from '../terminal/terminal.js';
import { runCommand, type RunnerSettings } from './command-runner.js';
import { harnessPackage } from './harness-package.js';
import { ExitCode } from './harness-errors.js';

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
      'The Graphiti Memory packages in a terminal: ingest, recall, promote and inspect memory in a Graphiti knowledge graph.\nWith no command it runs `demo` against an in-process emulator (offline).',
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
        'Exit codes: 0 ok, 1 failure, 2 bad usage.',
        '',
        'Examples:',
        '  graphiti-harness                          # the demo, offline',
        '  graphiti-harness ingest session.jsonl --wait --endpoint http://localhost:8000',
        '  graphiti-harness recall "which package manager do we use" --json',
      ].join('\n'),
    )
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

  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    throw error;
  }
  return exitCode;
}
