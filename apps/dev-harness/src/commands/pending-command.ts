// `graphiti-harness pending list|approve ID|reject ID`: the review queue. Memories a directive (or
// the assistant's remember tool) would promote wait here; nothing pending is sent before approval.
// `list` and `reject` stay on this machine; `approve` sends to the endpoint and waits until stored.
import { FilePendingMemoryStore, sharedStateFiles } from '@graphiti-memory/memory-node-storage';
import { describeLoopProposalMiss, FORGOTTEN_PENDING_REASON, sanitiseReadableLine, type PendingMemory } from '@graphiti-memory/memory-core';
import { Command } from 'commander';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { ExitCode, HarnessError } from '../cli/harness-errors.js';
import { parseSeconds, parseText } from '../cli/option-parsers.js';
import { openHarnessMemory } from '../composition/harness-container.js';
import { harnessLogger } from '../composition/debug-logger.js';
import { deliveryCounts, waitForDelivery } from '../delivery/wait-for-delivery.js';
import type { CommandRegistrar } from './command-registrar.js';

interface ApproveOptions extends RawCommonOptions {
  readonly text?: string;
  readonly wait?: string;
}

const DEFAULT_APPROVE_WAIT_SECONDS = 60;

export const registerPendingCommand: CommandRegistrar = (program, run) => {
  const pending = new Command('pending')
    .description('memories waiting for review: list them, approve (optionally edited) or reject one')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  graphiti-harness pending list',
        '  graphiti-harness pending approve 3f2a9c01b7de --text "Release on Fridays after noon."',
        '  graphiti-harness pending reject 3f2a9c01b7de --json',
      ].join('\n'),
    );
  pending.addCommand(
    addCommonOptions(new Command('list').description('list the pending memories, oldest first')).action((raw: RawCommonOptions) =>
      run(raw, (context) => list(context), { salvageConfig: true }),
    ),
  );
  pending.addCommand(
    addCommonOptions(
      new Command('approve')
        .description('send a pending memory (with --text instead of its own, when edited)')
        .argument('<id>', 'the id `pending list` shows')
        .option('--text <text>', 'the memory as edited')
        .option('--wait <seconds>', `how long to wait until it is stored (default ${DEFAULT_APPROVE_WAIT_SECONDS})`),
    ).action((id: string, raw: ApproveOptions) => run(raw, (context) => approve(context, id, raw), { salvageConfig: true })),
  );
  pending.addCommand(
    addCommonOptions(new Command('reject').description('drop a pending memory; nothing is sent').argument('<id>', 'the id `pending list` shows')).action(
      (id: string, raw: RawCommonOptions) => run(raw, (context) => reject(context, id), { salvageConfig: true }),
    ),
  );
  program.addCommand(pending);
};

function openStore(context: CommandContext): FilePendingMemoryStore {
  return new FilePendingMemoryStore({ filePath: sharedStateFiles(context.options.stateDir).pendingMemories, logger: harnessLogger(context.terminal.env, context.terminal.stderr) });
}

async function list(context: CommandContext): Promise<ExitCode> {
  const { output } = context;
  const memories = await openStore(context).list();
  output.result({ ok: true, pending: memories });
  if (memories.length === 0) output.line('No memories wait for review.');
  for (const memory of memories) output.line(describe(memory));
  return ExitCode.ok;
}

function describe(memory: PendingMemory): string {
  const from = memory.source === 'directive' ? 'a directive' : memory.source === 'loop-proposal' ? 'the chat model (a loop proposal)' : 'the assistant';
  // The text is a pasted turn's (or the assistant's): printed only sanitised, like every user text.
  const field = (value: unknown): string => sanitiseReadableLine(String(value));
  return `${field(memory.id)}  ${field(memory.kind)} (${field(memory.scope)}) from ${from}, ${new Date(memory.createdAt).toISOString()}\n    ${field(memory.text)}`;
}

function notFound(id: string): HarnessError {
  return new HarnessError(`no pending memory has the id ${JSON.stringify(id)}.`, { hint: 'Run graphiti-harness pending list for the ids.', details: { id } });
}

async function approve(context: CommandContext, id: string, raw: ApproveOptions): Promise<ExitCode> {
  const { output, terminal } = context;
  const text = raw.text === undefined ? undefined : parseText(raw.text, '--text');
  const waitSeconds = raw.wait === undefined ? DEFAULT_APPROVE_WAIT_SECONDS : parseSeconds(raw.wait, '--wait');
  const memory = await openHarnessMemory(context);
  memory.ingestion.start();
  const outcome = await memory.review.approve(id, text === undefined ? {} : { text });
  if (outcome.status === 'not-found') throw notFound(id);
  if (outcome.status === 'forgotten') {
    await memory.close();
    throw new HarnessError(`the memory ${id} was not approved: ${FORGOTTEN_PENDING_REASON}.`, {
      hint: 'Run graphiti-harness pending list to see what still waits for review.',
      details: { id, reason: 'forgotten', groupIds: outcome.groupIds },
    });
  }
  if (outcome.status === 'refused') {
    throw new HarnessError(`the memory ${id} was refused (${outcome.reason}); it stays pending and nothing was sent.`, {
      hint: outcome.reason === 'secret' ? 'Remove the secret from --text and approve again.' : 'Check the endpoint and settings, then approve again.',
      details: { id, reason: outcome.reason },
    });
  }
  if (outcome.status === 'not-applied') {
    await memory.close();
    throw new HarnessError(`the loop proposal ${id} was not approved: ${describeLoopProposalMiss(outcome.reason)}.`, {
      hint: 'Run graphiti-harness loops list to see the open loops, and graphiti-harness pending list for what still waits.',
      details: { id, reason: outcome.reason, kept: outcome.kept },
    });
  }
  if (outcome.status !== 'sent') throw notFound(id);
  const delivery = await waitForDelivery(memory.ingestion, { until: 'confirmed', timeoutMs: waitSeconds * 1000, output, terminal });
  await memory.close();
  output.result({ ok: delivery.complete, id, kind: outcome.memory.kind, scope: outcome.memory.scope, groupId: outcome.entry.groupId, ...deliveryCounts(delivery.stats) });
  if (delivery.complete) output.line(`${output.colors.green('✔')} approved and stored as a ${outcome.memory.kind} in the ${outcome.memory.scope} scope`);
  else output.error(`approved and sent, but not confirmed stored within ${waitSeconds} s.`, `Run graphiti-harness episodes --scope ${outcome.memory.scope} later to check.`);
  return delivery.complete ? ExitCode.ok : ExitCode.failure;
}

async function reject(context: CommandContext, id: string): Promise<ExitCode> {
  const { output } = context;
  const memory = await openStore(context).take(id);
  if (memory === undefined) throw notFound(id);
  output.result({ ok: true, id, rejected: true });
  output.line(`${output.colors.green('✔')} rejected ${id}; nothing was sent`);
  return ExitCode.ok;
}
