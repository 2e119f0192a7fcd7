// `graphiti-harness outbox list|retry|drop [ids...]` and `outbox move --from URL`: the outbox of
// --endpoint in --state-dir. `list` shows what waits — queued (not sent yet), unconfirmed (sent,
// not yet seen stored) — beside the dead letters (messages that failed --max-attempts times or
// stayed unconfirmed past maxAgeHours), and what waits at other endpoints. `retry` sends dead
// letters again with fresh attempts; `drop` deletes them for good; `move` brings what another
// endpoint's outbox holds (a typo in an earlier endpoint) to this one.
import { normaliseEndpoint, sanitiseReadableLine, type DeadLetter, type OutboxRecord } from '@graphiti-memory/memory-core';
import { moveQueuedRecords, otherEndpointOutboxes, type EndpointOutbox } from '@graphiti-memory/memory-node-storage';
import { Command } from 'commander';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { ExitCode, UsageError } from '../cli/harness-errors.js';
import { openHarnessMemory } from '../composition/harness-container.js';
import { deliveryCounts, waitForDelivery } from '../delivery/wait-for-delivery.js';
import type { Output } from '../terminal/output.js';
import type { CommandRegistrar } from './command-registrar.js';

export const OUTBOX_ACTIONS = ['list', 'retry', 'drop', 'move'] as const;
type OutboxAction = (typeof OUTBOX_ACTIONS)[number];

/** Waiting records `list` prints (the JSON carries as many). */
const LISTED_RECORDS = 50;

/** How long `retry` waits for the server to accept what it sends again (the outbox keeps the rest). */
const RETRY_SEND_BOUND_MS = 30_000;

export const registerOutboxCommand: CommandRegistrar = (program, run) => {
  program.addCommand(
    addCommonOptions(
      new Command('outbox')
        .description('list what waits to be delivered and the dead letters; retry or drop dead letters; move what another endpoint queued here')
        .argument('<action>', OUTBOX_ACTIONS.join(' | '))
        .argument('[ids...]', 'dead letters to retry or drop (default: all)')
        .option('--from <url>', 'move: the endpoint whose queued records come to --endpoint')
        .addHelpText(
          'after',
          [
            '',
            'The outbox belongs to --endpoint (and --state-dir): pass the same ones as the runs that queued the messages.',
            '',
            'Examples:',
            '  graphiti-harness outbox list --endpoint http://localhost:8000',
            '  graphiti-harness outbox retry --endpoint http://localhost:8000 --max-attempts 20',
            '  graphiti-harness outbox drop 1a2b-0 1a2b-1 --endpoint http://localhost:8000 --json',
            '  graphiti-harness outbox move --from https://localhost:8000 --endpoint http://localhost:8000',
          ].join('\n'),
        ),
    ).action((action: string, ids: string[], raw: RawCommonOptions & { from?: string }) =>
      run(raw, (context) => (parseAction(action) === 'move' ? move(context, raw.from) : outbox(context, parseAction(action), ids)), { salvageConfig: true }),
    ),
  );
};

function parseAction(action: string): OutboxAction {
  if ((OUTBOX_ACTIONS as readonly string[]).includes(action)) return action as OutboxAction;
  throw new UsageError(`unknown outbox action ${JSON.stringify(action)}; use one of ${OUTBOX_ACTIONS.join(', ')}.`);
}

async function move(context: CommandContext, from: string | undefined): Promise<ExitCode> {
  const { output, options } = context;
  const source = from === undefined ? undefined : normaliseEndpoint(from);
  if (source === undefined || source === '') throw new UsageError('outbox move needs --from URL: the endpoint whose queued records come here (`outbox list` names them).');
  const target = options.endpoint === undefined ? undefined : normaliseEndpoint(options.endpoint);
  if (target === undefined || target === '') throw new UsageError('outbox move needs --endpoint URL (or a configured endpoint): where the records go.');
  const moved = await moveQueuedRecords(options.stateDir, source, target);
  output.result({ ok: moved.journalsLeft === 0, ...moved });
  output.line(`${output.colors.green('✔')} moved ${moved.records} queued records from ${moved.from} to ${moved.to}${moved.openSegments > 0 ? ` (and ${moved.openSegments} turns waiting for their digest)` : ''}`);
  if (moved.journalsLeft > 0) output.warn(`${moved.journalsLeft} journals at ${moved.from} are held by a running process (a drainer); run the command again once it has left.`);
  if (moved.deadLetters > 0) output.line(`${moved.deadLetters} of them are dead letters: send them with \`graphiti-harness outbox retry\``);
  return moved.journalsLeft === 0 ? ExitCode.ok : ExitCode.failure;
}

async function outbox(context: CommandContext, action: OutboxAction, ids: readonly string[]): Promise<ExitCode> {
  const { output, options, terminal } = context;
  // Listing and dropping touch only local files: no request, so no health check either.
  const memory = await openHarnessMemory(context, { preflight: action === 'retry' });
  const letters = memory.ingestion.deadLetters();
  const known = new Set(letters.map((letter) => letter.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw new UsageError(`no dead letter with id ${unknown.join(', ')} in the outbox of ${memory.endpoint.label}; run \`outbox list\` to see the ids.`);
  }
  const chosen = ids.length === 0 ? undefined : ids;
  if (action === 'list') {
    const waiting = memory.outbox.waiting();
    const elsewhere = (await otherEndpointOutboxes(context.options.stateDir, memory.endpoint.url)).filter((other) => other.queued + other.deadLetters + other.openSegments > 0);
    const queued = waiting.filter((record) => record.state === 'pending').length;
    output.result({
      ok: true,
      endpoint: memory.endpoint.url,
      queued,
      unconfirmed: waiting.length - queued,
      records: waiting.slice(0, 500),
      deadLetters: letters,
      otherEndpoints: elsewhere,
    });
    printWaiting(output, waiting);
    printLetters(output, letters);
    printElsewhere(output, elsewhere);
    return ExitCode.ok;
  }
  if (action === 'drop') {
    const dropped = memory.ingestion.dropDeadLetters(chosen);
    output.result({ ok: true, endpoint: memory.endpoint.url, dropped });
    output.line(`${output.colors.green('✔')} dropped ${dropped} dead letters for good`);
    return ExitCode.ok;
  }
  const retried = memory.ingestion.retryDeadLetters(chosen);
  memory.ingestion.start();
  const outcome = await waitForDelivery(memory.ingestion, { until: 'sent', timeoutMs: Math.max(RETRY_SEND_BOUND_MS, options.timeoutMs * 3), output, terminal });
  const counts = deliveryCounts(outcome.stats);
  const ok = outcome.complete && counts.deadLettered === 0;
  output.result({ ok, endpoint: memory.endpoint.url, retried, ...counts, deadLetters: outcome.stats.deadLetters });
  output.line(
    `${ok ? output.colors.green('✔') : output.colors.red('✘')} retried ${retried}: sent ${counts.sent}, dead-lettered again ${counts.deadLettered}, still queued ${counts.waiting}`,
  );
  return ok ? ExitCode.ok : ExitCode.failure;
}

function printWaiting(output: Output, waiting: readonly OutboxRecord[]): void {
  const queued = waiting.filter((record) => record.state === 'pending').length;
  output.line(`${queued} queued (not sent yet), ${waiting.length - queued} unconfirmed (sent, not yet seen stored by Graphiti)`);
  for (const record of waiting.slice(0, LISTED_RECORDS)) {
    const state = record.state === 'pending' ? 'queued' : 'unconfirmed';
    output.line(`  ${record.id}  ${record.groupId}  ${record.message.name ?? '(no name)'}  ${state}  ${record.attempts} attempts  since ${new Date(record.enqueuedAt).toISOString()}`);
  }
  if (waiting.length > LISTED_RECORDS) output.line(`  … and ${waiting.length - LISTED_RECORDS} more (--json lists them)`);
}

function printElsewhere(output: Output, elsewhere: readonly EndpointOutbox[]): void {
  for (const other of elsewhere) {
    const where = other.url ?? `an endpoint no version recorded (${other.outboxDirectory})`;
    output.line(
      `${other.queued} queued records and ${other.deadLetters} dead letters wait for ${where}${other.url === undefined ? '' : `; move them here: graphiti-harness outbox move --from ${other.url}`}`,
    );
  }
}

function printLetters(output: Output, letters: readonly DeadLetter[]): void {
  if (letters.length === 0) {
    output.line('No dead letters.');
    return;
  }
  for (const letter of letters) {
    output.line(`${letter.id}  ${letter.groupId}  ${letter.name ?? '(no name)'}  ${letter.attempts} attempts  ${new Date(letter.deadAt).toISOString()}  ${sanitiseReadableLine(letter.lastError)}`);
  }
  output.line(`${letters.length} dead letters. Retry: graphiti-harness outbox retry [ids...]; delete: graphiti-harness outbox drop [ids...]`);
}
