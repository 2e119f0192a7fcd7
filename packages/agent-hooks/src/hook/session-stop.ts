// Stop and SessionEnd: the new turns of the event's transcript into the durable outbox, then the
// detached drainer delivers them; the hook itself returns as soon as they are durable.
import type { HandlerResult } from './handler-result.js';
import type { HookContext } from './hook-context.js';
import type { HookMemory } from './hook-memory.js';
import { captureTranscript, readTranscriptTurns } from './transcript-capture.js';

export async function handleSessionStop(context: HookContext, memory: HookMemory): Promise<HandlerResult> {
  const transcriptPath = context.hook.transcriptPath;
  if (transcriptPath === undefined) return { outcome: 'no-transcript' };
  const turns = await readTranscriptTurns(transcriptPath, context.hook.sessionId, context.config.filter);
  if (!Array.isArray(turns)) return { outcome: turns.outcome };
  const captured = await captureTranscript(memory, context.stateDirectory, transcriptPath, turns);
  return captured.outcome === 'queued' ? { outcome: 'queued', detail: `${captured.turns} turns`, drain: true } : { outcome: captured.outcome, drain: true };
}
