// Stop and SessionEnd: the new finished turns of the event's transcript into the durable outbox,
// then the detached drainer delivers them; the hook itself returns as soon as they are durable.
import { DEFAULT_SETTINGS } from '@graphiti-memory/memory-core';
import type { ResolvedMemoryConfig } from '@graphiti-memory/memory-node-storage';
import type { HandlerResult } from './handler-result.js';
import type { HookContext } from './hook-context.js';
import { captureTranscript, readTranscriptTurns, type CaptureTarget } from './transcript-capture.js';

export async function handleSessionStop(context: HookContext, memory: CaptureTarget): Promise<HandlerResult> {
  const transcriptPath = context.hook.transcriptPath;
  if (transcriptPath === undefined) return { outcome: 'no-transcript' };
  const turns = await readTranscriptTurns(transcriptPath, {
    sessionId: context.hook.sessionId,
    filter: context.config.filter,
    sessionEnded: context.hook.event === 'SessionEnd',
  });
  if (!Array.isArray(turns)) return { outcome: turns.outcome };
  const backfillTurns = backfillTurnsOf(context.config);
  const captured = await captureTranscript(memory, context.stateDirectory, transcriptPath, turns, { backfillTurns });
  // Counts only: the runs log never holds content.
  const detail = [
    captured.turns > 0 ? `${captured.turns} turns` : undefined,
    captured.olderTurnsLeftOut > 0 ? `${captured.olderTurnsLeftOut} older turns left out (capture.backfillTurns ${backfillTurns})` : undefined,
  ].filter((part) => part !== undefined);
  return { outcome: captured.turns > 0 ? 'queued' : 'nothing-new', ...(detail.length === 0 ? {} : { detail: detail.join('; ') }), drain: true };
}

/**
 * `capture.backfillTurns` of the resolved configuration (`config.capture.backfillTurns`, once the
 * configuration carries the capture settings), else memory-core's default.
 */
function backfillTurnsOf(config: ResolvedMemoryConfig): number {
  const capture = (config as { readonly capture?: { readonly backfillTurns?: number } }).capture;
  return capture?.backfillTurns ?? DEFAULT_SETTINGS.capture.backfillTurns;
}
