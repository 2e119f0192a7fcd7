// `graphiti-harness forget --scope S`: deletes a scope's whole group from Graphiti, after asking
// (or with --yes). Without a terminal to ask on and without --yes it refuses: exit 2.
import type { MemoryScope } from '@graphiti-memory/memory-core';
import { Command } from 'commander';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { ExitCode, UsageError } from '../cli/harness-errors.js';
import { HARNESS_SCOPES, parseScope } from '../cli/option-parsers.js';
import { openHarnessMemory } from '../composition/harness-container.js';
import { describeGraphitiFailure } from '../terminal/describe-error.js';
import type { CommandRegistrar } from './command-registrar.js';
import { groupOfScope } from './scope-group.js';

interface ForgetOptions extends RawCommonOptions {
  readonly scope?: string;
  readonly yes?: boolean;
}

export const registerForgetCommand: CommandRegistrar = (program, run) => {
  program.addCommand(
    addCommonOptions(
      new Command('forget')
        .description("delete everything stored in a scope's group (asks first)")
        .requiredOption('--scope <scope>', HARNESS_SCOPES.join(' | '))
        .option('-y, --yes', 'do not ask (needed when not on a terminal)')
        .addHelpText(
          'after',
          [
            '',
            'Examples:',
            '  graphiti-harness forget --scope workspace',
            '  graphiti-harness forget --scope session --session my-session --yes --json',
          ].join('\n'),
        ),
    ).action((raw: ForgetOptions) => run(raw, (context) => forget(context, raw))),
  );
};

async function forget(context: CommandContext, raw: ForgetOptions): Promise<ExitCode> {
  const { output, options, terminal } = context;
  const scope: MemoryScope = parseScope(raw.scope ?? '', HARNESS_SCOPES);
  const interactive = terminal.stdin.isTTY === true && terminal.stderr.isTTY === true && !options.json;
  if (raw.yes !== true && !interactive) {
    throw new UsageError('forget deletes memory and needs confirmation: pass --yes when not running on a terminal.');
  }
  const memory = await openHarnessMemory(context);
  const groupId = await groupOfScope(memory, scope, options.session);
  if (raw.yes !== true) {
    const agreed = await output.confirm(`Delete everything in the ${scope} scope (group ${groupId}) at ${memory.endpoint.label}?`);
    if (!agreed) {
      output.line('Nothing deleted.');
      return ExitCode.ok;
    }
  }
  try {
    await memory.client.deleteGroup(groupId);
  } catch (error) {
    throw describeGraphitiFailure(error, memory.endpoint.url, 'Deleting the group', options.timeoutMs);
  }
  output.result({ ok: true, scope, groupId, deleted: true });
  output.line(`${output.colors.green('✔')} deleted the ${scope} scope (group ${groupId})`);
  return ExitCode.ok;
}
