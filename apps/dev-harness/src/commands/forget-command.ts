// `graphiti-harness forget`: deletes groups from Graphiti, after asking (or with --yes). Which
// groups is memory-core's forget policy: `--scope workspace` is the workspace group and every session
// group that ran in it, `--scope session --session ID` one session, `--all` every group of the
// registry (the user scope only when named too). What is still queued for them is dequeued first:
// the hook servers and the background drainer are stopped before, so the drainer's journal is
// taken over and dropped too (nothing it held is sent after the delete); pending memories of those
// groups are dropped.
// Without a terminal to ask on and without --yes it refuses: exit 2.
import { stopHookProcesses } from '@graphiti-memory/agent-hooks';
import type { ForgetRequest, ForgetResult, ForgetTarget } from '@graphiti-memory/memory-core';
import { Command } from 'commander';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { ExitCode, HarnessError, UsageError } from '../cli/harness-errors.js';
import { HARNESS_SCOPES, parseScope } from '../cli/option-parsers.js';
import { openHarnessMemory } from '../composition/harness-container.js';
import { recordForget } from '../delivery/local-tier-updates.js';
import type { Output } from '../terminal/output.js';
import type { CommandRegistrar } from './command-registrar.js';

interface ForgetOptions extends RawCommonOptions {
  readonly scope?: string;
  readonly all?: boolean;
  readonly allAuthors?: boolean;
  readonly yes?: boolean;
}

export const registerForgetCommand: CommandRegistrar = (program, run) => {
  program.addCommand(
    addCommonOptions(
      new Command('forget')
        .description('delete memory groups from Graphiti: a workspace with all its sessions, one session, or everything (asks first)')
        .option('--scope <scope>', HARNESS_SCOPES.join(' | '))
        .option('--all', 'every group of the registry (the user scope only with --scope user as well; never the shared team group)')
        .option('--all-authors', "with --scope team: delete the whole team group, your teammates' memories included")
        .option('-y, --yes', 'do not ask (needed when not on a terminal)')
        .addHelpText(
          'after',
          [
            '',
            'What is still queued for those groups is dropped and never sent again.',
            '--json prints { "deletedGroups": [...], "dequeued": N, "droppedPending": N, "failed": [...] }.',
            '',
            'Examples:',
            '  graphiti-harness forget --scope workspace',
            '  graphiti-harness forget --scope session --session my-session --yes --json',
            '  graphiti-harness forget --all --yes',
            '  graphiti-harness forget --scope team --yes          (only what you promoted to the team)',
          ].join('\n'),
        ),
    ).action((raw: ForgetOptions) => run(raw, (context) => forget(context, raw))),
  );
};

function forgetRequest(raw: ForgetOptions, sessionId: string | undefined): ForgetRequest {
  if (raw.all === true) {
    if (raw.scope !== undefined && parseScope(raw.scope, ['user'] as const) === 'user') return { all: true, includeUser: true };
    return { all: true };
  }
  if (raw.scope === undefined) throw new UsageError('forget needs --scope workspace|session|user|team or --all.');
  const scope = parseScope(raw.scope, HARNESS_SCOPES);
  if (raw.allAuthors === true && scope !== 'team') throw new UsageError('--all-authors goes with --scope team only.');
  if (scope === 'team') return { scope, allAuthors: raw.allAuthors === true };
  if (scope === 'session') {
    if (sessionId === undefined) throw new UsageError('--scope session needs --session ID (the chat session).');
    return { scope, sessionId };
  }
  return { scope };
}

function describeRequest(request: ForgetRequest): string {
  if ('all' in request) return request.includeUser === true ? 'every group of the registry, the user scope included' : 'every group of the registry';
  if (request.scope === 'workspace') return 'the workspace and all its sessions';
  if (request.scope === 'team') {
    return request.allAuthors === true ? "the whole team group, every teammate's memories included" : 'what you promoted to the team scope (your episodes only)';
  }
  return request.scope === 'session' ? `the session ${request.sessionId}` : 'the user scope';
}

async function forget(context: CommandContext, raw: ForgetOptions): Promise<ExitCode> {
  const { output, options, terminal } = context;
  const request = forgetRequest(raw, options.session);
  const interactive = terminal.stdin.isTTY === true && terminal.stderr.isTTY === true && !options.json;
  if (raw.yes !== true && !interactive) {
    throw new UsageError('forget deletes memory and needs confirmation: pass --yes when not running on a terminal.');
  }
  const memory = await openHarnessMemory(context);
  const targets = await memory.forget.plan(request);
  if (targets.length === 0) {
    output.result({ ok: true, deletedGroups: [], dequeued: 0, droppedPending: 0, failed: [] });
    output.line(`Nothing to forget: no group of ${describeRequest(request)} is known here.`);
    return ExitCode.ok;
  }
  if (raw.yes !== true) {
    const agreed = await output.confirm(`Delete ${describeRequest(request)} (${targets.length} groups) at ${memory.endpoint.label}?\n${listTargets(targets)}`);
    if (!agreed) {
      output.line('Nothing deleted.');
      return ExitCode.ok;
    }
  }
  // The drainer must let go of what it holds before the queue is searched; the next Stop starts it again.
  await stopHookProcesses(context.terminal.env, options.stateDir);
  let result: ForgetResult;
  try {
    result = await memory.forget.forget(request, { timeoutMs: options.timeoutMs });
  } catch (error) {
    throw new HarnessError(error instanceof Error ? error.message : String(error), { hint: 'Pass --endpoint URL of the Graphiti to delete from.' });
  } finally {
    // The local tier forgets them too, even where deleting failed: the user asked for them gone.
    await recordForget(output, memory, targets);
  }
  output.result({
    ok: result.failed.length === 0,
    deletedGroups: result.deletedGroups,
    ...(result.deletedEpisodes === undefined ? {} : { deletedEpisodes: result.deletedEpisodes }),
    dequeued: result.dequeued,
    droppedPending: result.droppedPending,
    failed: result.failed,
  });
  report(output, result, memory.endpoint.url);
  return result.failed.length === 0 ? ExitCode.ok : ExitCode.failure;
}

function listTargets(targets: readonly ForgetTarget[]): string {
  return targets.map((target) => `  ${target.scope.padEnd(9)} ${target.groupId}${target.sessionId === undefined ? '' : ` (session ${target.sessionId})`}`).join('\n');
}

function report(output: Output, result: ForgetResult, url: string): void {
  if (result.deletedEpisodes !== undefined) {
    // A team forget of one's own part: the group stays for the teammates.
    output.line(`${output.colors.green('✔')} deleted ${result.deletedEpisodes} of your episodes from the team group`);
  } else {
    for (const groupId of result.deletedGroups) output.line(`${output.colors.green('✔')} deleted group ${groupId}`);
  }
  if (result.dequeued > 0) output.line(`  ${result.dequeued} queued messages dropped before they were sent`);
  if (result.droppedPending > 0) output.line(`  ${result.droppedPending} pending memories of those groups dropped`);
  for (const failure of result.failed) {
    output.error(`deleting group ${failure.groupId} at ${url} failed (${failure.errorClass}).`, 'It stays in the registry: run the same forget again once Graphiti is reachable.');
  }
}
