// Stop and SessionEnd: the new finished turns of the event's transcript into the durable outbox,
// then the detached drainer delivers them; the hook itself returns as soon as they are durable.
import { DEFAULT_SETTINGS, type ChatTurn } from '@graphiti-memory/memory-core';
import type { ResolvedMemoryConfig } from '@graphiti-memory/memory-node-storage';
import type { HandlerResult } from './handler-result.js';
import type { HookContext } from './hook-context.js';
import { captureTranscript, readTranscript, transcriptTurns, type CaptureTarget } from './transcript-capture.js';

export async function handleSessionStop(context: HookContext, memory: CaptureTarget): Promise<HandlerResult> {
  const transcriptPath = context.hook.transcriptPath;
  if (transcriptPath === undefined) return { outcome: 'no-transcript' };
  const text = await readTranscript(transcriptPath);
  if (typeof text !== 'string') return { outcome: text.outcome };
  const read = { sessionId: context.hook.sessionId, filter: context.config.filter, ...(context.hook.assistant === undefined ? {} : { assistant: context.hook.assistant }) };
  const finished = transcriptTurns(text, { ...read, sessionEnded: context.hook.event === 'SessionEnd' });
  const reply = context.hook.event === 'Stop' ? context.hook.lastAssistantMessage : undefined;
  const turns = reply === undefined ? finished : withLastReply(transcriptTurns(text, { ...read, sessionEnded: true }), finished, reply);
  const backfillTurns = backfillTurnsOf(context.config);
  const captured = await captureTranscript(memory, context.stateDirectory, transcriptPath, turns, { backfillTurns, sessionEnded: context.hook.event === 'SessionEnd', endpoint: context.endpoint });
  // Counts only: the runs log never holds content.
  if (captured.queuedElsewhere === true) return { outcome: 'nothing-new', detail: `${captured.turns} turns already queued by another run`, drain: true };
  const detail = [
    captured.turns > 0 ? `${captured.turns} turns` : undefined,
    captured.olderTurnsLeftOut > 0 ? `${captured.olderTurnsLeftOut} older turns left out (capture.backfillTurns ${backfillTurns})` : undefined,
  ].filter((part) => part !== undefined);
  return { outcome: captured.turns > 0 ? 'queued' : 'nothing-new', ...(detail.length === 0 ? {} : { detail: detail.join('; ') }), drain: true };
}

/**
 * Claude Code writes its transcript lazily: its Stop can come before the reply it stopped with is
 * in the file, and SessionEnd may follow too soon for it as well. Stop names that reply
 * (`last_assistant_message`), so the last turn, unfinished in the file, is finished with it.
 * `all`: the same read's turns with the unfinished last one.
 */
function withLastReply(all: readonly ChatTurn[], finished: ChatTurn[], reply: string): ChatTurn[] {
  const last = all.length > finished.length ? all.at(-1) : undefined;
  if (last === undefined) return finished;
  const written = last.assistant?.text ?? '';
  const text = written.includes(reply.trim()) ? written : [written, reply.trim()].filter((part) => part !== '').join('\n\n');
  return [...finished, { ...last, assistant: { text, timestamp: new Date().toISOString() } }];
}

/**
 * `capture.backfillTurns` of the resolved configuration (`config.capture.backfillTurns`, once the
 * configuration carries the capture settings), else memory-core's default.
 */
function backfillTurnsOf(config: ResolvedMemoryConfig): number {
  return config.settings?.capture.backfillTurns ?? DEFAULT_SETTINGS.capture.backfillTurns;
}
