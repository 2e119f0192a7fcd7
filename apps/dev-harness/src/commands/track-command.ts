// `graphiti-harness track [DIR]`: watches a folder of transcripts (Claude Code's projects folder
// by default) and ingests each session's new turns once it has been quiet for --idle seconds.
// Runs until Ctrl-C; what was handed over stays in the durable outbox if sending is cut short.
import { defaultClaudeCodeProjectsFolder, FileKeyValueStore, TranscriptWatcher } from '@graphiti-memory/memory-node-storage';
import { Command } from 'commander';
import path from 'node:path';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { ExitCode } from '../cli/harness-errors.js';
import { parseGranularity, parseInteger, parseSeconds, parseTranscriptFormat, TRANSCRIPT_FORMAT_CHOICES } from '../cli/option-parsers.js';
import { DEFAULT_RESEND_AFTER_SECONDS, openHarnessMemory } from '../composition/harness-container.js';
import { deliveryCounts } from '../delivery/wait-for-delivery.js';
import type { CommandRegistrar } from './command-registrar.js';

interface TrackOptions extends RawCommonOptions {
  readonly idle?: string;
  readonly granularity?: string;
  readonly format?: string;
  readonly existing?: boolean;
  readonly resendAfter?: string;
  readonly poll?: boolean;
  readonly backfillTurns?: string;
}

export const DEFAULT_TRACK_IDLE_SECONDS = 60;

export const registerTrackCommand: CommandRegistrar = (program, run) => {
  program.addCommand(
    addCommonOptions(
      new Command('track')
        .description('watch a folder of transcripts and ingest each session once it goes quiet (Ctrl-C stops)')
        .argument('[dir]', "the folder to watch (default: Claude Code's projects folder)")
        .option('--granularity <granularity>', 'session: one digest episode per group per session, sent capture.idleMinutes after its last turn (default); turn: one episode per message')
        .option('--idle <seconds>', `quiet time that ends a burst of chat (default ${DEFAULT_TRACK_IDLE_SECONDS})`)
        .option('--format <format>', `${TRANSCRIPT_FORMAT_CHOICES.join(' | ')} (default auto)`)
        .option('--no-existing', 'skip what files hold already; ingest only what is written from now on')
        .option('--backfill-turns <n>', 'of a session met for the first time, ingest only its newest N turns (default 20, as capture.backfillTurns)')
        .option('--resend-after <seconds>', `resend window (default ${DEFAULT_RESEND_AFTER_SECONDS})`)
        .option('--poll', 'poll for changes instead of file events (network drives, containers)')
        .addHelpText(
          'after',
          [
            '',
            'Offsets are kept in --state-dir, so a restart continues where it stopped.',
            '',
            'Examples:',
            '  graphiti-harness track',
            '  graphiti-harness track ./transcripts --format jsonl --idle 10 --endpoint http://localhost:8000',
          ].join('\n'),
        ),
    ).action((dir: string | undefined, raw: TrackOptions) => run(raw, (context) => track(context, dir, raw))),
  );
};

async function track(context: CommandContext, dir: string | undefined, raw: TrackOptions): Promise<ExitCode> {
  const { output, terminal } = context;
  const idleSeconds = raw.idle === undefined ? DEFAULT_TRACK_IDLE_SECONDS : parseSeconds(raw.idle, '--idle', { min: 0.05, max: 86_400 });
  const format = raw.format === undefined ? 'auto' : parseTranscriptFormat(raw.format);
  const resendAfterSeconds = raw.resendAfter === undefined ? DEFAULT_RESEND_AFTER_SECONDS : parseSeconds(raw.resendAfter, '--resend-after', { min: 1, max: 86_400 });
  const root = dir === undefined ? defaultClaudeCodeProjectsFolder(terminal.env as NodeJS.ProcessEnv) : path.resolve(terminal.cwd, dir);

  const granularity = parseGranularity(raw.granularity);
  const memory = await openHarnessMemory(context, { resendAfterSeconds, ...(granularity === undefined ? {} : { granularity }) });
  const backfillTurns =
    raw.backfillTurns === undefined ? memory.configuration.current().capture.backfillTurns : parseInteger(raw.backfillTurns, '--backfill-turns', { min: 0, max: 1000 });
  const offsets = await FileKeyValueStore.open(memory.layout.watcherOffsets);
  context.defer(() => offsets.flush());
  memory.ingestion.start();

  const stopped = new AbortController();
  const interruption = terminal.onInterrupt(() => stopped.abort());
  context.defer(() => interruption.dispose());
  let sessions = 0;
  let turns = 0;
  const watcher = await TranscriptWatcher.start({
    root,
    offsets,
    idleMs: idleSeconds * 1000,
    format,
    existingFiles: raw.existing === false ? 'skip' : 'read',
    // The configured filter (`filter`: a preset or per-kind modes) for every format the folder holds.
    transcriptOptions: { filter: memory.configuration.current().filter },
    backfillTurns,
    usePolling: raw.poll === true,
    onSessionIdle: async (event) => {
      if (event.newTurns.length === 0) return;
      for (const turn of event.newTurns) memory.ingestion.enqueue(turn);
      await memory.ingestion.settled();
      sessions += 1;
      turns += event.newTurns.length;
      const skipped = event.skippedTurns === undefined ? '' : `; ${event.skippedTurns} older turns left out (--backfill-turns ${backfillTurns})`;
      output.info(`${path.basename(event.path)}: ${event.newTurns.length} new turns (${event.format}) handed to ingestion${skipped}`);
    },
  });
  output.info(`Watching ${root} (quiet after ${idleSeconds} s); Ctrl-C stops.`);
  await new Promise<void>((resolve) => stopped.signal.addEventListener('abort', () => resolve(), { once: true }));
  output.info('Stopping…');
  await watcher.close();
  await memory.close();
  const stats = memory.ingestion.stats();
  output.result({ ok: true, root, sessions, turns, watcher: watcher.stats(), ...deliveryCounts(stats) });
  output.line(`${sessions} session hand-overs, ${turns} turns; ${deliveryCounts(stats).sent} messages sent, ${stats.queueDepth} left in the outbox for next time`);
  return ExitCode.ok;
}
