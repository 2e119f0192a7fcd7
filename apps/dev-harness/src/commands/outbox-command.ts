// `graphiti-harness outbox list|retry|drop [ids...]`: the dead letters of --endpoint's outbox in
// --state-dir — messages that failed --max-attempts times or stayed unconfirmed past maxAgeHours.
// `retry` sends them again with fresh attempts; `drop` deletes them for good.
import type { DeadLetter } from '@graphiti-memory/memory-core';
import { Command } from 'commander';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { ExitCode, UsageError } from '../cli/harness-errors.js';
import { openHarnessMemory } from '../composition/harness-container.js';
import { deliveryCounts, waitForDelivery } from '../delivery/wait-for-delivery.js';
import type { Output } from '../terminal/output.js';
import type { CommandRegistrar } from './command-registrar.js';

export const OUTBOX_ACTIONS = ['list', 'retry', 'drop'] as const;
type OutboxAction = (typeof OUTBOX_ACTIONS)[number];

/** How long `retry` waits for the server to accept what it sends again (the outbox keeps the rest). */
const RETRY_SEND_BOUND_MS = 30_000;

export const registerOutboxCommand: CommandRegistrar = (program, run) => {
  program.addCommand(
    addCommonOptions(
      new Command('outbox')
        .description('list, retry or drop dead letters: messages that will not be sent again on their own')
        .argument('<action>', OUTBOX_ACTIONS.join(' | '))
        .argument('[ids...]', 'dead letters to retry or drop (default: all)')
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
          ].join('\n'),
        ),
    ).action((action: string, ids: string[], raw: RawCommonOptions) => run(raw, (context) => outbox(context, parseAction(action), ids), { salvageConfig: true })),
  );
};

function parseAction(action: string): OutboxAction {
  if ((OUTBOX_ACTIONS as readonly string[]).includes(action)) return action as OutboxAction;
  throw new UsageError(`unknown outbox action ${JSON.stringify(action)}; use one of ${OUTBOX_ACTIONS.join(', ')}.`);
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
    output.result({ ok: true, endpoint: memory.endpoint.url, deadLetters: letters, queued: memory.ingestion.stats().queueDepth });
    printLetters(output, letters);
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

function printLetters(output: Output, letters: readonly DeadLetter[]): void {
  if (letters.length === 0) {
    output.line('No dead letters.');
    return;
  }
  for (const letter of letters) {
    output.line(`${letter.id}  ${letter.groupId}  ${letter.name ?? '(no name)'}  ${letter.attempts} attempts  ${new Date(letter.deadAt).toISOString()}  ${letter.lastError}`);
  }
  output.line(`${letters.length} dead letters. Retry: graphiti-harness outbox retry [ids...]; delete: graphiti-harness outbox drop [ids...]`);
}
