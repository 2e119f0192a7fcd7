// Stop / SessionEnd: the new turns of the event's transcript go into the durable outbox, and the
// hook returns. Claude Code's JSONL and Copilot agent mode's transcript are both read. Each turn is
// taken once: the transcript's taken turn ids are kept in the state folder, and the delivery
// ledger refuses what was already enqueued, so repeated events never send a turn twice.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isCopilotAgentTranscript, parseCopilotAgentTranscript, parseTranscript, type ChatTurn, type TranscriptFilterPreset } from '@graphiti-memory/memory-core';
import type { HookMemory } from './hook-memory.js';

/** Transcripts larger than this are not read by a hook (the `track` command handles them). */
const MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024;
/** Turn ids remembered per transcript. */
const MAX_TAKEN_IDS = 20_000;

export type CaptureOutcome =
  | { readonly outcome: 'queued'; readonly turns: number }
  | { readonly outcome: 'nothing-new' | 'no-transcript' | 'transcript-too-large' | 'transcript-unreadable' };

export async function readTranscriptTurns(transcriptPath: string, sessionId: string | undefined, filter: string | undefined): Promise<ChatTurn[] | CaptureOutcome> {
  let stat;
  try {
    stat = await fs.stat(transcriptPath);
  } catch {
    return { outcome: 'no-transcript' };
  }
  if (!stat.isFile()) return { outcome: 'transcript-unreadable' };
  if (stat.size > MAX_TRANSCRIPT_BYTES) return { outcome: 'transcript-too-large' };
  const text = await fs.readFile(transcriptPath, 'utf8');
  if (isCopilotAgentTranscript(text)) {
    return parseCopilotAgentTranscript(text, sessionId === undefined ? {} : { sessionId }).turns;
  }
  const parsed = parseTranscript(text, 'claude-code', {
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(filter === undefined ? {} : { filter: filter as TranscriptFilterPreset }),
  });
  return parsed?.turns ?? [];
}

function takenFile(stateDirectory: string, transcriptPath: string): string {
  const key = createHash('sha256').update(path.resolve(transcriptPath)).digest('hex').slice(0, 24);
  return path.join(stateDirectory, 'hooks', 'transcripts', `${key}.json`);
}

async function readTaken(file: string): Promise<string[]> {
  try {
    const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as { ids?: unknown };
    return Array.isArray(parsed.ids) ? parsed.ids.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** Enqueues the turns not taken before and waits until they are durable in the outbox. */
export async function captureTranscript(memory: HookMemory, stateDirectory: string, transcriptPath: string, turns: readonly ChatTurn[]): Promise<CaptureOutcome> {
  const ingestion = memory.ingestion;
  if (ingestion === undefined) throw new Error('captureTranscript: the hook memory was opened without the durable outbox');
  const file = takenFile(stateDirectory, transcriptPath);
  const taken = await readTaken(file);
  const seen = new Set(taken);
  const fresh = turns.filter((turn) => !seen.has(`${turn.sessionId}\n${turn.id}`));
  if (fresh.length === 0) return { outcome: 'nothing-new' };
  for (const turn of fresh) ingestion.enqueue(turn);
  await ingestion.settled();
  // Durable before the turns are marked taken: a crash in between re-offers them to the ledger.
  await memory.outbox?.flush();
  const ids = [...taken, ...fresh.map((turn) => `${turn.sessionId}\n${turn.id}`)].slice(-MAX_TAKEN_IDS);
  await fs.mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await fs.writeFile(temporary, JSON.stringify({ ids }));
  await fs.rename(temporary, file);
  return { outcome: 'queued', turns: fresh.length };
}
