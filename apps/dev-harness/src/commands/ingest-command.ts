// `graphiti-harness ingest FILE`: imports a transcript through memory-core's ingestion — planning,
// secret guard, durable outbox, delivery ledger — so running it again sends only what never got
// through, also after a killed run.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseTranscript, type TranscriptFilterOption, type TranscriptParseResult } from '@graphiti-memory/memory-core';
import type { FileOutbox, OutboxRecovery } from '@graphiti-memory/memory-node-storage';
import { Command } from 'commander';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { ExitCode, HarnessError, UsageError } from '../cli/harness-errors.js';
import { parseGranularity, parseSeconds, parseTranscriptFormat, TRANSCRIPT_FORMAT_CHOICES } from '../cli/option-parsers.js';
import { DEFAULT_RESEND_AFTER_SECONDS, openHarnessMemory } from '../composition/harness-container.js';
import { deliveryCounts, waitForDelivery, type DeliveryOutcome } from '../delivery/wait-for-delivery.js';
import type { Output } from '../terminal/output.js';
import type { CommandRegistrar } from './command-registrar.js';

interface IngestOptions extends RawCommonOptions {
  readonly format?: string;
  /** `true` for a bare `--wait`. */
  readonly wait?: string | boolean;
  readonly resendAfter?: string;
  readonly granularity?: string;
}

export const DEFAULT_INGEST_WAIT_SECONDS = 120;
/** Without --wait: how long sending may take before the command gives up (the outbox keeps the rest). */
const SEND_BOUND_MINIMUM_MS = 15_000;
const MAX_FILE_BYTES = 256 * 1024 * 1024;

export const registerIngestCommand: CommandRegistrar = (program, run) => {
  program.addCommand(
    addCommonOptions(
      new Command('ingest')
        .description('send the turns of a transcript file to Graphiti (idempotent per --state-dir)')
        .argument('<file>', 'a transcript: Claude Code JSONL, a VS Code chat session, or plain JSONL')
        .option('--format <format>', `${TRANSCRIPT_FORMAT_CHOICES.join(' | ')} (default auto)`)
        .option('--wait [seconds]', `wait until every message is confirmed stored (default ${DEFAULT_INGEST_WAIT_SECONDS} s); exit 1 if some are not`)
        .option('--granularity <granularity>', 'session: one digest episode per group per session (default, as capture.granularity); turn: one episode per message')
        .option(
          '--resend-after <seconds>',
          `send a message again when it stays unconfirmed this long while the server shows no progress (default ${DEFAULT_RESEND_AFTER_SECONDS})`,
        )
        .addHelpText(
          'after',
          [
            '',
            'A jsonl transcript has one {"role","content","timestamp"} object a line. Malformed lines are skipped and counted.',
            'Running it again with the same --state-dir sends only what never got through.',
            '',
            'Examples:',
            '  graphiti-harness ingest session.jsonl --wait',
            '  graphiti-harness ingest ~/.claude/projects/my-app/1234.jsonl --endpoint http://localhost:8000 --wait 600',
            '  graphiti-harness ingest chat.json --format vscode-chat --json',
          ].join('\n'),
        ),
    ).action((file: string, raw: IngestOptions) => run(raw, (context) => ingest(context, file, raw))),
  );
};

async function ingest(context: CommandContext, file: string, raw: IngestOptions): Promise<ExitCode> {
  const { output, options, terminal } = context;
  const format = raw.format === undefined ? 'auto' : parseTranscriptFormat(raw.format);
  const waitSeconds = raw.wait === undefined ? undefined : raw.wait === true ? DEFAULT_INGEST_WAIT_SECONDS : parseSeconds(String(raw.wait), '--wait');
  const resendAfterSeconds =
    raw.resendAfter === undefined ? DEFAULT_RESEND_AFTER_SECONDS : parseSeconds(raw.resendAfter, '--resend-after', { min: 1, max: 86_400 });

  const filePath = path.resolve(terminal.cwd, file);
  const parsed = await readTranscript(filePath, format, options.session, context.configuration.settings.filter);
  reportParse(output, parsed, file);

  const sessionId = sessionOf(parsed);
  if (sessionId !== undefined) output.info(`session id: ${sessionId} (forget it with: forget --scope session --session ${sessionId})`);

  const granularity = parseGranularity(raw.granularity);
  const memory = await openHarnessMemory(context, { resendAfterSeconds, ...(granularity === undefined ? {} : { granularity }) });
  const recovery = reportRecovery(output, memory.outbox);
  memory.ingestion.start();
  for (const turn of parsed.turns) memory.ingestion.enqueue(turn);
  // A file read to its end is a finished session: its digests close now (capture.granularity session).
  memory.ingestion.endSessions(parsed.turns.map((turn) => turn.sessionId));
  await memory.ingestion.settled();
  const planned = memory.ingestion.stats();
  output.info(
    `${parsed.turns.length} turns → ${planned.counters.enqueued} messages queued (${planned.counters.duplicates} already queued, sent or forgotten before) for ${memory.endpoint.label}`,
  );

  const sendBoundMs = Math.max(SEND_BOUND_MINIMUM_MS, options.timeoutMs * 3);
  const outcome = await waitForDelivery(memory.ingestion, {
    until: waitSeconds === undefined ? 'sent' : 'confirmed',
    timeoutMs: waitSeconds === undefined ? sendBoundMs : waitSeconds * 1000,
    output,
    terminal,
  });
  await memory.close();
  const counts = deliveryCounts(outcome.stats);
  const ok = outcome.complete && counts.deadLettered === 0;
  output.result({
    ok,
    ...counts,
    queued: counts.enqueued,
    ...(sessionId === undefined ? {} : { sessionId }),
    deadLetters: outcome.stats.deadLetters,
    recovery,
    file: filePath,
    format: parsed.format,
    turns: parsed.turns.length,
    malformedLines: parsed.malformedLines,
    tooLongLines: parsed.tooLongLines,
    skippedTurns: parsed.skippedTurns,
    waited: waitSeconds !== undefined,
    endpoint: memory.endpoint.url,
    emulator: memory.endpoint.emulator !== undefined,
    ...(outcome.stats.lastErrorClass === undefined ? {} : { lastErrorClass: outcome.stats.lastErrorClass }),
  });
  printSummary(output, counts, outcome, waitSeconds, sessionId);
  if (!outcome.complete) explainIncomplete(output, outcome, memory.endpoint.url, waitSeconds ?? sendBoundMs / 1000, waitSeconds !== undefined);
  if (counts.deadLettered > 0) {
    output.error(
      `${counts.deadLettered} messages became dead letters (${outcome.stats.lastErrorClass ?? 'refused'}); they are not sent again on their own.`,
      'See them with `graphiti-harness outbox list`, send them again with `outbox retry`, or delete them with `outbox drop`.',
    );
  }
  return ok ? ExitCode.ok : ExitCode.failure;
}

/** The session the turns belong to (derived from the file when it names none): the `session` scope's id. */
function sessionOf(parsed: TranscriptParseResult): string | undefined {
  const sessions = new Set(parsed.turns.map((turn) => turn.sessionId));
  return sessions.size === 1 ? [...sessions][0] : undefined;
}

/** Damage found in the outbox's files is said, with what is done about it; never counted as delivered. */
function reportRecovery(output: Output, outbox: FileOutbox): OutboxRecovery {
  const recovery = outbox.recovery();
  if (recovery.damagedFiles.length > 0) {
    output.warn(
      `${recovery.corruptLines} damaged and ${recovery.tornLines} cut-off lines in ${recovery.damagedFiles.join(', ')} (in the outbox of --state-dir) were skipped. ` +
        'What they held is not counted as delivered: those messages are queued and sent again now.',
    );
  }
  return recovery;
}

async function readTranscript(
  filePath: string,
  format: ReturnType<typeof parseTranscriptFormat>,
  sessionId: string | undefined,
  filter: TranscriptFilterOption | undefined,
): Promise<TranscriptParseResult> {
  let text: string;
  try {
    const stat = await fs.stat(filePath);
    if (!stat.isFile()) throw new UsageError(`${filePath} is not a file; give a transcript file.`);
    if (stat.size > MAX_FILE_BYTES) throw new UsageError(`${filePath} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB; split it first.`);
    text = await fs.readFile(filePath, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${filePath}${code === undefined ? '' : ` (${code})`}; give an existing, readable transcript file.`);
  }
  const parsed = parseTranscript(text, format, {
    fileName: path.basename(filePath),
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(filter === undefined ? {} : { filter }),
  });
  if (parsed === undefined) {
    throw new HarnessError(`${filePath} is not a transcript format the harness recognises.`, {
      hint: `Pass --format (${TRANSCRIPT_FORMAT_CHOICES.filter((choice) => choice !== 'auto').join(', ')}).`,
    });
  }
  if (parsed.unsupportedVersion !== undefined) {
    throw new HarnessError(`${filePath} is a ${parsed.format} transcript of version ${String(parsed.unsupportedVersion)}, which this harness does not read.`, {
      hint: 'Update the harness, or export the session as plain JSONL.',
    });
  }
  return parsed;
}

function reportParse(output: Output, parsed: TranscriptParseResult, file: string): void {
  output.info(`${file}: ${parsed.format}, ${parsed.turns.length} finished turns`);
  if (parsed.malformedLines > 0) output.warn(`${parsed.malformedLines} malformed lines in ${file} were skipped.`);
  if (parsed.tooLongLines > 0) output.warn(`${parsed.tooLongLines} lines in ${file} are longer than the reader's limit and were skipped (too long, not malformed).`);
  if (parsed.tornLastLine) output.warn(`the last line of ${file} is incomplete (still being written?) and was skipped.`);
}

function printSummary(output: Output, counts: ReturnType<typeof deliveryCounts>, outcome: DeliveryOutcome, waitSeconds: number | undefined, sessionId: string | undefined): void {
  const mark = outcome.complete && counts.deadLettered === 0 ? output.colors.green('✔') : output.colors.red('✘');
  // Queued (accepted into the outbox), sent (accepted by the server) and confirmed (found stored) are three steps.
  output.line(
    `${mark} queued ${counts.enqueued}, sent ${counts.sent}, confirmed ${counts.confirmed}, dropped ${counts.dropped}, dead-lettered ${counts.deadLettered}` +
      (counts.duplicates > 0 ? `, ${counts.duplicates} already queued or sent before` : '') +
      (sessionId === undefined ? '' : `; session ${sessionId}`),
  );
  if (waitSeconds === undefined && outcome.complete && counts.sent > 0) {
    output.line('  Sent (accepted). Pass --wait to wait until Graphiti has stored them.');
  }
}

function explainIncomplete(output: Output, outcome: DeliveryOutcome, url: string, limitSeconds: number, confirming: boolean): void {
  const { stats } = outcome;
  const what = confirming ? 'confirmed stored' : 'sent';
  if (outcome.interrupted) {
    output.warn(`interrupted: ${stats.queueDepth} messages are not ${what} yet; run the same command again to continue.`);
    return;
  }
  let reason = '';
  if (stats.state === 'accepting-not-processing') reason = ` Graphiti at ${url} accepts messages but stores none: its worker may have stopped (restart the server).`;
  else if (stats.lastErrorClass !== undefined) reason = ` The last request to ${url} failed with ${stats.lastErrorClass}.`;
  else if (stats.blockedReason !== undefined) reason = ` Nothing could be sent: ${stats.blockedReason}.`;
  output.error(
    `${stats.queueDepth} messages were not ${what} within ${limitSeconds} s.${reason}`,
    'They stay in the outbox of --state-dir: run the same command again (with a longer --wait) to continue.',
  );
}
