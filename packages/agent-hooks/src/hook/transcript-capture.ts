// Stop / SessionEnd: the new finished turns of the event's transcript go into the durable outbox,
// and the hook returns. The transcript is read in the format the assistant's descriptor names (of
// those its hook file's events may carry, the one the text is: memory-core's agent-transcripts.ts).
// - Finished turns only: a Stop can read a transcript mid-turn (Copilot ends every tool round of
//   its agent loop with `assistant.turn_end`; a Claude Code turn may still wait for a tool), and a
//   half turn taken then would never get its reply sent. It stays untaken until it ends; at
//   SessionEnd nothing more will be written, so the last turn is taken as it is.
// - Bounded: of a transcript the hooks never saw before (hooks installed into a long session),
//   only the newest `capture.backfillTurns` turns are sent; the older ones count as taken.
// - Once: the transcript's taken turn ids are kept in the state folder, per endpoint (a session
//   captured under a wrong endpoint is not taken for the right one), and the delivery ledger
//   refuses what was already enqueued, so repeated events never send a turn twice.
// - Digests (capture.granularity `session`): taken turns wait in the session's open segment (beside
//   the outbox); SessionEnd closes it, otherwise idle time or `capture.digestTurns` does.
import { promises as fs } from 'node:fs';
import { agentTranscriptFormatOf, readAgentTranscript, type ChatTurn, type Ingestion, type TranscriptFilterOption } from '@graphiti-memory/memory-core';
import { FileTranscriptLedger, transcriptLedgerFile } from '@graphiti-memory/memory-node-storage';
import { assistantDescriptor, DEFAULT_ASSISTANT, type AgentHookTarget } from '../assistants/assistant-registry.js';

/** Transcripts larger than this are not read by a hook (the `track` command handles them). */
const MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024;

/** A transcript the hook does not read. */
export interface TranscriptMiss {
  readonly outcome: 'no-transcript' | 'transcript-too-large' | 'transcript-unreadable';
}

export interface CaptureResult {
  /** Turns enqueued now. */
  readonly turns: number;
  /** Turns of a transcript met for the first time that `backfillTurns` left out (now counted as taken). */
  readonly olderTurnsLeftOut: number;
  /**
   * Every message of the enqueued turns was refused by the delivery ledger: another run (the
   * runner and the hook server both running one event, two Stops at once) queued them first.
   */
  readonly queuedElsewhere?: boolean;
}

export interface TranscriptReadOptions {
  readonly sessionId?: string | undefined;
  /** The configured `filter`: a preset or per-kind modes over one. */
  readonly filter?: TranscriptFilterOption | undefined;
  /** SessionEnd: the transcript is complete, so its last turn counts as finished however it ended. */
  readonly sessionEnded: boolean;
  /** The assistant whose event names the transcript (default: Claude Code's, which VS Code's events share). */
  readonly assistant?: AgentHookTarget;
}

/** What a capture needs of the hook's memory: the durable outbox behind ingestion. */
export interface CaptureTarget {
  readonly ingestion: (Pick<Ingestion, 'enqueue' | 'backfill' | 'settled' | 'endSessions'> & Partial<Pick<Ingestion, 'stats'>>) | undefined;
  readonly outbox: { flush(): Promise<void> } | undefined;
}

export interface CaptureOptions {
  /** `capture.backfillTurns`: the newest turns taken from a transcript met for the first time. */
  readonly backfillTurns: number;
  /** SessionEnd: the session's open digest segments close now. */
  readonly sessionEnded?: boolean;
  /** The endpoint whose outbox takes the turns: a turn counts as taken for it alone. */
  readonly endpoint: string;
}

/** The finished turns of the transcript, in file order. */
export async function readTranscriptTurns(transcriptPath: string, options: TranscriptReadOptions): Promise<ChatTurn[] | TranscriptMiss> {
  const text = await readTranscript(transcriptPath);
  return typeof text === 'string' ? transcriptTurns(text, options) : text;
}

/** The transcript's text (an event reads it once: the file may grow between two reads), or why not. */
export async function readTranscript(transcriptPath: string): Promise<string | TranscriptMiss> {
  let stat;
  try {
    stat = await fs.stat(transcriptPath);
  } catch {
    return { outcome: 'no-transcript' };
  }
  if (!stat.isFile()) return { outcome: 'transcript-unreadable' };
  if (stat.size > MAX_TRANSCRIPT_BYTES) return { outcome: 'transcript-too-large' };
  return fs.readFile(transcriptPath, 'utf8');
}

/** The finished turns of a transcript's text (with `sessionEnded`, the last one however it ended), in file order. */
export function transcriptTurns(text: string, options: TranscriptReadOptions): ChatTurn[] {
  const format = agentTranscriptFormatOf(text, assistantDescriptor(options.assistant ?? DEFAULT_ASSISTANT).transcript.formats);
  if (format === undefined) return [];
  return readAgentTranscript(text, format, { sessionId: options.sessionId, filter: options.filter, includeUnfinished: options.sessionEnded });
}

/** The key of a turn in the transcript ledger. */
function takenKey(turn: ChatTurn): string {
  return `${turn.sessionId}\n${turn.id}`;
}

/**
 * Enqueues the turns not taken before and waits until they are durable in the outbox. Two events
 * on one transcript at once (a hook server answers several) may offer the same turns: the
 * delivery ledger admits each once, and the transcript ledger keeps what both took.
 */
export async function captureTranscript(
  target: CaptureTarget,
  stateDirectory: string,
  transcriptPath: string,
  turns: readonly ChatTurn[],
  options: CaptureOptions,
): Promise<CaptureResult> {
  const ingestion = target.ingestion;
  if (ingestion === undefined) throw new Error('captureTranscript: the hook memory was opened without the durable outbox');
  const ledger = new FileTranscriptLedger({ filePath: transcriptLedgerFile(stateDirectory, transcriptPath), endpoint: options.endpoint });
  const taken = await ledger.taken();
  const fresh = turns.filter((turn) => taken?.has(takenKey(turn)) !== true);
  const ended = options.sessionEnded === true ? turns.map((turn) => turn.sessionId) : [];
  if (fresh.length === 0) {
    if (ended.length === 0) return { turns: 0, olderTurnsLeftOut: 0 };
    // Nothing new, but turns of earlier Stops may wait in an open segment: it closes now.
    ingestion.endSessions(ended);
    await ingestion.settled();
    await target.outbox?.flush();
    return { turns: 0, olderTurnsLeftOut: 0 };
  }
  let queued = fresh.length;
  const before = ingestion.stats?.().counters;
  if (taken === undefined) {
    // Never seen: memory-core's bounded backfill keeps the newest turns.
    queued = ingestion.backfill(fresh, { limit: options.backfillTurns });
  } else {
    for (const turn of fresh) ingestion.enqueue(turn);
  }
  ingestion.endSessions(ended);
  await ingestion.settled();
  // Durable before the turns are marked taken: a crash in between re-offers them to the ledger.
  await target.outbox?.flush();
  // Admission that failed (its lock or the ledger could not be written) leaves them staged, in
  // memory only: not taken, so the next Stop offers them again.
  const staged = ingestion.stats?.().staged ?? 0;
  if (staged > 0) throw new Error(`captureTranscript: the outbox did not take ${staged} staged item(s); the turns stay untaken and the next Stop offers them again`);
  await ledger.add(fresh.map(takenKey));
  const after = ingestion.stats?.().counters;
  const queuedElsewhere = before !== undefined && after !== undefined && queued > 0 && after.enqueued === before.enqueued && after.duplicates > before.duplicates;
  return { turns: queued, olderTurnsLeftOut: fresh.length - queued, ...(queuedElsewhere ? { queuedElsewhere } : {}) };
}
