// `graphiti-harness forget`: deletes groups from Graphiti, after asking (or with --yes). Which
// groups is memory-core's forget policy: `--scope workspace` is the workspace group and every session
// group that ran in it, `--scope session --session ID` one session, `--all` every group of the
// registry (the user scope only when named too). What is still queued for them is dequeued first:
// the hook servers and the background drainer are stopped before, so the drainer's journal is
// taken over and dropped too (nothing it held is sent after the delete); pending memories of those
// groups are dropped. All of that happens before the network is touched, and is recorded per
// endpoint (memory-core's forget ledger): with Graphiti unreachable the forget still succeeds, and
// the group deletes it owes are carried out when Graphiti is back (the next drain, or `--retry`).
// Without a terminal to ask on and without --yes it refuses: exit 2.
import { stopHookProcesses } from '@graphiti-memory/agent-hooks';
import { sanitiseReadableLine, sourceForgetSummary, type ForgetFailure, type SourceForgetResult, type ForgetRequest, type ForgetResult, type ForgetTarget } from '@graphiti-memory/memory-core';
import { Command } from 'commander';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { ExitCode, HarnessError, UsageError } from '../cli/harness-errors.js';
import { HARNESS_SCOPES, parseScope } from '../cli/option-parsers.js';
import { openHarnessMemory } from '../composition/harness-container.js';
import type { Output } from '../terminal/output.js';
import type { CommandRegistrar } from './command-registrar.js';

interface ForgetOptions extends RawCommonOptions {
  readonly scope?: string;
  readonly all?: boolean;
  readonly allAuthors?: boolean;
  readonly yes?: boolean;
  readonly episode?: string;
  readonly group?: string;
  readonly retry?: boolean;
}

/** Graphiti did not answer at all (as opposed to answering with an error). */
const UNREACHABLE_KINDS: ReadonlySet<string> = new Set(['connection', 'timeout']);

export const registerForgetCommand: CommandRegistrar = (program, run) => {
  program.addCommand(
    addCommonOptions(
      new Command('forget')
        .description('delete memory groups from Graphiti: a workspace with all its sessions, one session, or everything (asks first)')
        .option('--scope <scope>', HARNESS_SCOPES.join(' | '))
        .option('--all', 'every group of the registry (the user scope only with --scope user as well; never the shared team group)')
        .option('--all-authors', "with --scope team: delete the whole team group, your teammates' memories included")
        .option('--episode <uuid>', 'one source instead: the episode a citation names, and (on REST) the facts only it supports')
        .option('--group <groupId>', "with --episode: the episode's group, when it was not delivered from this machine (REST needs it)")
        .option('-y, --yes', 'do not ask (needed when not on a terminal)')
        .option('--retry', 'carry out the group deletes an earlier forget owes (it ran while Graphiti was unreachable)')
        .addHelpText(
          'after',
          [
            '',
            'What is still queued for those groups is dropped and never sent again, and their turns are',
            'never captured again (also from a transcript resumed under a new session id). This works',
            'with Graphiti unreachable: the groups are deleted when it is back (the next drain, or --retry).',
            '--json prints { "deletedGroups": [...], "dequeued": N, "droppedPending": N, "droppedLoops": N, "failed": [...], "owed": [...] }.',
            '',
            'Examples:',
            '  graphiti-harness forget --scope workspace',
            '  graphiti-harness forget --scope session --session my-session --yes --json',
            '  graphiti-harness forget --all --yes',
            '  graphiti-harness forget --scope team --yes          (only what you promoted to the team)',
            '  graphiti-harness forget --episode 3f2a…-uuid --yes   (the source a recalled fact cites; recall --json lists sources[].episode)',
            '  graphiti-harness forget --retry',
          ].join('\n'),
        ),
    ).action((raw: ForgetOptions) => run(raw, (context) => forget(context, raw), { salvageConfig: true })),
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
  if (raw.retry === true) return retryOwed(context);
  const interactive = terminal.stdin.isTTY === true && terminal.stderr.isTTY === true && !options.json;
  if (raw.yes !== true && !interactive) {
    throw new UsageError('forget deletes memory and needs confirmation: pass --yes when not running on a terminal.');
  }
  if (raw.episode !== undefined) return forgetOneEpisode(context, raw, raw.episode);
  if (raw.group !== undefined) throw new UsageError('--group goes with --episode UUID (the episode\'s group).');
  const request = forgetRequest(raw, options.session);
  // No health check first: a forget must work with Graphiti down.
  const memory = await openHarnessMemory(context, { preflight: false });
  const targets = await memory.forget.plan(request);
  if (targets.length === 0) {
    output.result({ ok: true, deletedGroups: [], dequeued: 0, droppedPending: 0, droppedLoops: 0, failed: [] });
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
    result = await memory.forget.forget(request, { timeoutMs: options.timeoutMs, maxRetries: 0 });
  } catch (error) {
    throw new HarnessError(error instanceof Error ? error.message : String(error), { hint: 'Pass --endpoint URL of the Graphiti to delete from.' });
  }
  const ok = deferredOnly(result);
  output.result({
    ok,
    deletedGroups: result.deletedGroups,
    ...(result.deletedEpisodes === undefined ? {} : { deletedEpisodes: result.deletedEpisodes }),
    dequeued: result.dequeued,
    droppedPending: result.droppedPending,
    droppedLoops: result.droppedLoops,
    failed: result.failed,
    owed: result.owed,
    forgottenTurns: result.forgottenTurns,
    earlierDeleted: result.earlierDeleted,
  });
  report(output, result, memory.endpoint.url, ok);
  return ok ? ExitCode.ok : ExitCode.failure;
}

/** `forget --retry`: the deletes earlier forgets owe, now. */
async function retryOwed(context: CommandContext): Promise<ExitCode> {
  const { output, options } = context;
  const memory = await openHarnessMemory(context, { preflight: false });
  const owed = await memory.forget.owed();
  if (owed.length === 0) {
    output.result({ ok: true, deletedGroups: [], failed: [], owed: [] });
    output.line(`No group delete is owed at ${memory.endpoint.url}.`);
    return ExitCode.ok;
  }
  const result = await memory.forget.retryOwed({ timeoutMs: options.timeoutMs, maxRetries: 0 });
  const stillOwed = result.failed.map((failure) => failure.groupId);
  output.result({ ok: result.failed.length === 0, deletedGroups: result.deleted, failed: result.failed, owed: stillOwed });
  for (const groupId of result.deleted) output.line(`${output.colors.green('✔')} deleted group ${groupId}`);
  reportFailures(output, result.failed, memory.endpoint.url);
  return result.failed.length === 0 ? ExitCode.ok : ExitCode.failure;
}

/**
 * `forget --episode UUID`: one source, as a citation names it, in every group it was sent to (its
 * session's and workspace's copies) with, on REST, the facts only they support (memory-core's
 * `ForgetService.forgetSource`).
 */
async function forgetOneEpisode(context: CommandContext, raw: ForgetOptions, uuid: string): Promise<ExitCode> {
  const { output, options } = context;
  if (raw.all === true || raw.scope !== undefined) throw new UsageError('--episode forgets one source: leave out --scope and --all.');
  const episode = uuid.trim();
  if (!/^[\w-]{1,100}$/.test(episode)) throw new UsageError(`--episode needs the episode's uuid (recall --json lists it as sources[].episode); got "${uuid.slice(0, 100)}".`);
  // The outbox's delivery ledger says which groups the source went to.
  const memory = await openHarnessMemory(context);
  const known = (await memory.episodeSources.find([episode])).get(episode);
  if (raw.yes !== true) {
    const what = known === undefined ? `the episode ${episode}` : `the episode ${episode} (${known.tool}, ${known.at.slice(0, 10)}${known.title === undefined ? '' : `: ${known.title}`})`;
    if (!(await output.confirm(`Delete ${what}, its copies in the other groups it was sent to, and the facts only they support at ${memory.endpoint.label}?`))) {
      output.line('Nothing deleted.');
      await memory.close();
      return ExitCode.ok;
    }
  }
  let result: SourceForgetResult;
  try {
    result = await memory.forget.forgetSource(episode, {
      ...(raw.group === undefined ? {} : { groupId: raw.group }),
      callOptions: { timeoutMs: options.timeoutMs },
    });
  } catch (error) {
    await memory.close();
    throw new HarnessError(`Forgetting the episode ${episode} failed: ${error instanceof Error ? error.message : String(error)}`, {
      hint: 'Check the uuid (recall --json lists sources[].episode) and that --endpoint is the Graphiti that holds it.',
    });
  }
  await memory.close();
  output.result({
    ok: true,
    episode,
    face: result.face,
    deletedEpisodes: result.episodes,
    deletedFacts: result.deletedFacts ?? null,
    keptFacts: result.keptFacts,
    unknownFacts: result.unknownFacts,
  });
  output.line(`${output.colors.green('✔')} ${sourceForgetSummary(result)}`);
  // Episode uuids and group ids come from the server: printed only sanitised.
  for (const copy of result.episodes) output.line(`  deleted episode ${sanitiseReadableLine(copy.episode)} from ${sanitiseReadableLine(copy.groupId)}`);
  if (result.face === 'rest' && result.keptFacts > 0) output.line(`  ${result.keptFacts} facts kept (other sources support them)`);
  if (result.unknownFacts > 0) output.warn(`${result.unknownFacts} facts were kept: this server does not say which episodes support them (a REST image before 2026-08).`);
  return ExitCode.ok;
}

function unreachable(failure: ForgetFailure): boolean {
  return failure.kind !== undefined && UNREACHABLE_KINDS.has(failure.kind);
}

function listTargets(targets: readonly ForgetTarget[]): string {
  return targets.map((target) => `  ${target.scope.padEnd(9)} ${target.groupId}${target.sessionId === undefined ? '' : ` (session ${target.sessionId})`}`).join('\n');
}

/** Only unreachable and owed: the forget did all it can do now, and the rest happens by itself. */
function deferredOnly(result: ForgetResult): boolean {
  return result.failed.every((failure) => unreachable(failure) && result.owed.includes(failure.groupId));
}

function report(output: Output, result: ForgetResult, url: string, deferred: boolean): void {
  if (result.deletedEpisodes !== undefined) {
    // A team forget of one's own part: the group stays for the teammates.
    output.line(`${output.colors.green('✔')} deleted ${result.deletedEpisodes} of your episodes from the team group`);
  } else {
    for (const groupId of result.deletedGroups) output.line(`${output.colors.green('✔')} deleted group ${groupId}`);
  }
  for (const groupId of result.earlierDeleted) output.line(`${output.colors.green('✔')} deleted group ${groupId} (owed by an earlier forget)`);
  if (result.dequeued > 0) output.line(`  ${result.dequeued} queued messages dropped before they were sent`);
  if (result.droppedPending > 0) output.line(`  ${result.droppedPending} pending memories of those groups dropped`);
  if (result.droppedLoops > 0) output.line(`  ${result.droppedLoops} open loops of those groups dropped`);
  if (result.failed.length > 0 && deferred) {
    output.line(
      `Graphiti at ${url} is unreachable; queued memories were dropped; the groups will be deleted when it is back — run \`graphiti-harness forget --retry\` or it happens on the next drain.`,
    );
    return;
  }
  reportFailures(output, result.failed, url, result.owed);
}

function reportFailures(output: Output, failed: readonly ForgetFailure[], url: string, owed: readonly string[] = failed.map((failure) => failure.groupId)): void {
  for (const failure of failed) {
    const hint = owed.includes(failure.groupId)
      ? 'The delete stays owed: it is tried again on the next drain, or run `graphiti-harness forget --retry`.'
      : 'It stays in the registry: run the same forget again once Graphiti is reachable.';
    output.error(`deleting group ${failure.groupId} at ${url} failed (${failure.errorClass}).`, hint);
  }
}
