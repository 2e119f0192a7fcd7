// `graphiti-harness loops list|done ID|drop ID`: the workspace's open loops (TODO:, next:,
// follow-up: … lines of finished turns, kept in the state folder), closed or dropped by hand.
// Closing sends a `task_update` episode so the graph knows when it was done; with Graphiti down
// it waits in the durable outbox and the next command or hook that sends delivers it.
import { describeLoop, isStaleLoop, sanitiseReadableLine, type OpenLoop } from '@graphiti-memory/memory-core';
import { Command } from 'commander';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { ExitCode, HarnessError } from '../cli/harness-errors.js';
import { parseSeconds } from '../cli/option-parsers.js';
import { openHarnessMemory } from '../composition/harness-container.js';
import { deliveryCounts, waitForDelivery } from '../delivery/wait-for-delivery.js';
import type { CommandRegistrar } from './command-registrar.js';

interface ListOptions extends RawCommonOptions {
  readonly all?: boolean;
}

interface CloseOptions extends RawCommonOptions {
  readonly wait?: string;
}

const DEFAULT_CLOSE_WAIT_SECONDS = 30;

export const registerLoopsCommand: CommandRegistrar = (program, run) => {
  const loops = new Command('loops')
    .description("the workspace's open loops (TODO:, next:, follow-up: lines of earlier sessions): list them, close or drop one")
    .addHelpText(
      'after',
      [
        '',
        'A finished turn with a line starting `TODO:`, `next:`, `next time,`, `follow-up:` or `task_update:` opens a loop;',
        'a later line `done: …` (or `task_update (done): …`) closes the one it matches. The brief names open loops',
        'until they are done; one untouched for loops.expireDays (default 30) is shown as stale and no longer named.',
        '',
        'Examples:',
        '  graphiti-harness loops list',
        '  graphiti-harness loops list --all --json',
        '  graphiti-harness loops done 3f2a9c01b7de',
        '  graphiti-harness loops drop 3f2a',
      ].join('\n'),
    );
  loops.addCommand(
    addCommonOptions(new Command('list').description("list this workspace's open loops, newest first").option('--all', 'closed and dropped loops too')).action((raw: ListOptions) =>
      run(raw, (context) => list(context, raw), { salvageConfig: true }),
    ),
  );
  for (const [name, status, description] of [
    ['done', 'done', 'close an open loop: it is done (sends a task_update episode)'],
    ['drop', 'dropped', 'drop an open loop: it will not be done (sends a task_update episode)'],
  ] as const) {
    loops.addCommand(
      addCommonOptions(
        new Command(name)
          .description(description)
          .argument('<id>', 'the id `loops list` shows (a unique prefix is enough)')
          .option('--wait <seconds>', `how long to wait until Graphiti stored it (default ${DEFAULT_CLOSE_WAIT_SECONDS})`),
      ).action((id: string, raw: CloseOptions) => run(raw, (context) => close(context, id, status, raw), { salvageConfig: true })),
    );
  }
  program.addCommand(loops);
};

/** A loop as `--json` prints it: the stored record, its age and whether it is stale. */
function loopJson(loop: OpenLoop, now: Date, expireDays: number): Record<string, unknown> {
  return { ...loop, stale: isStaleLoop(loop, now, expireDays), age: describeLoop(loop, now, expireDays) };
}

/** The loops of `groupId` (open ones unless `all`), newest first. */
function workspaceLoops(loops: readonly OpenLoop[], groupId: string, all: boolean): OpenLoop[] {
  return loops.filter((loop) => loop.groupId === groupId && (all || loop.status === 'open')).sort((left, right) => right.updatedAt.localeCompare(left.updatedAt) || left.id.localeCompare(right.id));
}

async function list(context: CommandContext, raw: ListOptions): Promise<ExitCode> {
  const { output } = context;
  // Local only: no health check, nothing sent.
  const memory = await openHarnessMemory(context, { preflight: false, needs: {} });
  const groupId = await memory.groups.resolve('workspace');
  const expireDays = memory.configuration.current().loops.expireDays;
  const now = new Date();
  const loops = groupId === undefined ? [] : workspaceLoops(await memory.loopStore.list(), groupId, raw.all === true);
  output.result({ ok: true, groupId: groupId ?? null, expireDays, loops: loops.map((loop) => loopJson(loop, now, expireDays)) });
  if (loops.length === 0) output.line(raw.all === true ? 'No loops in this workspace.' : 'No open loops in this workspace.');
  for (const loop of loops) {
    // Loop text comes from chat: printed only sanitised, like every user text.
    output.line(`${sanitiseReadableLine(loop.id)}  ${sanitiseReadableLine(loop.text)}\n    ${sanitiseReadableLine(describeLoop(loop, now, expireDays))}`);
  }
  return ExitCode.ok;
}

async function close(context: CommandContext, id: string, status: 'done' | 'dropped', raw: CloseOptions): Promise<ExitCode> {
  const { output, terminal } = context;
  const waitSeconds = raw.wait === undefined ? DEFAULT_CLOSE_WAIT_SECONDS : parseSeconds(raw.wait, '--wait');
  // No health check first: closing works with Graphiti down (the episode waits in the outbox).
  const memory = await openHarnessMemory(context, { preflight: false });
  memory.ingestion.start();
  const closed = await memory.loops.close(id, status, 'graphiti-harness');
  if (!closed.ok) {
    const hint = 'Run graphiti-harness loops list for the ids of the open loops.';
    if (closed.reason === 'ambiguous') throw new HarnessError(`more than one loop starts with ${JSON.stringify(id)}.`, { hint: 'Give more of the id.', details: { id, matches: closed.matches?.map((loop) => loop.id) ?? [] } });
    if (closed.reason === 'not-open') throw new HarnessError(`the loop ${id} is already ${closed.matches?.[0]?.status ?? 'closed'}.`, { hint, details: { id } });
    if (closed.reason === 'no-workspace') throw new HarnessError('this folder has no workspace scope, so it has no loops.', { hint: 'Pass --workspace PATH of the project.', details: { id } });
    throw new HarnessError(`no open loop of this workspace has the id ${JSON.stringify(id)}.`, { hint, details: { id } });
  }
  memory.ingestion.enqueueEntries(closed.entries);
  const delivery = closed.entries.length === 0 ? undefined : await waitForDelivery(memory.ingestion, { until: 'confirmed', timeoutMs: waitSeconds * 1000, output, terminal });
  await memory.close();
  const sent = delivery?.complete === true;
  output.result({ ok: true, id: closed.loop.id, status: closed.loop.status, text: closed.loop.text, taskUpdate: closed.entries.length === 0 ? 'not-sent' : sent ? 'stored' : 'queued', ...(delivery === undefined ? {} : deliveryCounts(delivery.stats)) });
  output.line(`${output.colors.green('✔')} ${status === 'done' ? 'closed' : 'dropped'} ${closed.loop.id}: ${sanitiseReadableLine(closed.loop.text)}`);
  if (closed.entries.length > 0 && !sent) output.line('  the task_update episode waits in the outbox; the next command or hook that sends delivers it');
  return ExitCode.ok;
}
