// `graphiti-harness hook`: one agent hook event from stdin (Claude Code, Copilot agent mode). The
// same code path as the bundled dist/hook-runner.cjs; never in the way — exit 0, and nothing on
// stdout but `additionalContext` JSON.
import { Command, Option } from 'commander';
import { ExitCode } from '../cli/harness-errors.js';
import { harnessBinary } from '../cli/harness-package.js';
import { readHookStdin, runHook } from '@graphiti-memory/agent-hooks';
import type { CommandRegistrar } from './command-registrar.js';


export const registerHookCommand: CommandRegistrar = (program, run) => {
  program.addCommand(
    new Command('hook')
      .description('run one agent hook event read from stdin (installed by `hooks install`); always exits 0')
      .allowUnknownOption(true)
      .allowExcessArguments(true)
      .helpOption('-h, --help', 'show help for this command')
      .option('--event <name>', 'the event, when stdin does not name it (SessionStart, UserPromptSubmit, Stop, SessionEnd)')
      .option('--endpoint <url>', 'Graphiti base URL (default: the config file)')
      .option('--state-dir <dir>', 'durable outbox, local tier and hook log (default: your user data folder)')
      .option('--scopes <list>', 'comma-separated scopes: session,workspace,user')
      .option('--timeout-ms <ms>', 'the recall deadline (default 750)')
      .option('--workspace <path>', "the workspace folder (default: the event's cwd)")
      .option('--installed-by <tool>', 'who installed the hook (set by `hooks install`)')
      .addOption(new Option('--drain', 'run as the background drainer').hideHelp())
      .addHelpText(
        'after',
        [
          '',
          'Reads {"hook_event_name", "session_id", "transcript_path", "cwd", "prompt", …} on stdin and acts on the event:',
          '  UserPromptSubmit  recall for the prompt under the deadline; prints {"hookSpecificOutput":{…,"additionalContext":"<graphiti_memory>…"}}',
          '  SessionStart      prints the workspace brief from the local tier (refreshed in the background)',
          '  Stop, SessionEnd  takes the new turns of transcript_path into the durable outbox; a detached drainer delivers them',
          'Without consent (`hooks install`) or with `enabled: false` it makes no network call and prints nothing.',
          'Any failure: nothing printed, exit 0, a line in <state-dir>/hooks/hook.log.',
        ].join('\n'),
      )
      .action(async (_options: unknown, command: Command) => {
        await run({}, async (context) => {
          const stdinText = command.opts<{ drain?: boolean }>().drain === true ? '' : await readHookStdin(context.terminal.stdin);
          await runHook({
            argv: rawArguments(command),
            stdinText,
            env: context.terminal.env,
            cwd: context.terminal.cwd,
            write: (text) => context.terminal.stdout.write(text),
            drainer: { nodePath: process.execPath, scriptPath: harnessBinary(), leadingArguments: ['hook'] },
          });
          return ExitCode.ok;
        }, { configFiles: false });
      }),
  );
};

/** The options as given, for the hook's own lenient parser. */
function rawArguments(command: Command): string[] {
  const options = command.opts<Record<string, string | boolean | undefined>>();
  const argv: string[] = [];
  const flags: Array<[string, string]> = [
    ['event', '--event'],
    ['endpoint', '--endpoint'],
    ['stateDir', '--state-dir'],
    ['scopes', '--scopes'],
    ['timeoutMs', '--timeout-ms'],
    ['workspace', '--workspace'],
    ['installedBy', '--installed-by'],
  ];
  for (const [key, flag] of flags) {
    const value = options[key];
    if (typeof value === 'string') argv.push(flag, value);
  }
  if (options['drain'] === true) argv.push('--drain');
  return argv;
}
