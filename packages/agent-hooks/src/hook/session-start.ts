// SessionStart: the workspace brief from memory's local tier (`LocalTier.brief`), printed even when
// Graphiti is down or slow. A tier never read from Graphiti (cold) gets one bounded read first; a
// stale one is refreshed in the background by the drainer. The brief is recall: the scopes
// `recall.scopes` allows, stale-checked, cited, and only what this session was not given yet; it
// ends with where the workspace's last session left off. The workspace's open loops (TODO:, next:
// … lines of earlier turns) are named with their age and source, a few at most. How many memories await review is said
// always; the brief follows `recall.enabled`. What the brief gives is recorded for the session
// (hashes only), so its recalls do not say it again; a new, cleared or compacted conversation
// starts that record anew, a resumed one adds.
import { DEFAULT_LOOP_EXPIRE_DAYS, describeAge, NOTHING_SAID, type SaidMemory } from '@graphiti-memory/memory-core';
import { FileSaidOnceStore } from '@graphiti-memory/memory-node-storage';
import type { HookContext } from './hook-context.js';
import type { HookMemory } from './hook-memory.js';
import type { HandlerResult } from './handler-result.js';
import { renderBrief } from './brief-lines.js';
import { briefLoops } from './brief-loops.js';
import { boundedTierWrite } from './bounded-write.js';
import { pendingNotice, withPendingNotice } from './pending-notice.js';
import { deliveryFooter, withDeliveryFooter } from './delivery-footer.js';
import { markSessionStarting } from './session-starting.js';

/** Time kept back from the deadline for writing the tier, rendering and answering: a late brief is never printed. */
const ANSWER_MARGIN_MS = 250;

export async function handleSessionStart(context: HookContext, memory: HookMemory, startedAt: number, now: () => Date): Promise<HandlerResult> {
  const [result, notice, footer] = await Promise.all([
    workspaceBrief(context, memory, startedAt, now),
    pendingNotice(context.stateDirectory),
    deliveryFooter(context.stateDirectory, context.endpoint, context.config.settings.maxAgeHours),
  ]);
  return withDeliveryFooter(withPendingNotice(result, notice), footer);
}

async function workspaceBrief(context: HookContext, memory: HookMemory, startedAt: number, now: () => Date): Promise<HandlerResult> {
  // The brief is memory put into the prompt: it follows `recall.enabled` as recall does.
  if (!context.config.settings.recall.enabled) return { outcome: 'recall-off' };
  const sessionId = context.hook.sessionId;
  if (sessionId === undefined) return briefFor(context, memory, startedAt, now, undefined);
  // A prompt of this session running beside the brief (Copilot CLI) waits for what it records.
  const cleared = await markSessionStarting(context.stateDirectory, sessionId);
  try {
    return await briefFor(context, memory, startedAt, now, sessionId);
  } finally {
    await cleared();
  }
}

async function briefFor(context: HookContext, memory: HookMemory, startedAt: number, now: () => Date, sessionId: string | undefined): Promise<HandlerResult> {
  const saidOnce = sessionId === undefined ? undefined : new FileSaidOnceStore({ stateDirectory: context.stateDirectory, endpoint: context.endpoint });
  // Only a resumed conversation still holds what was given before; an unreadable record costs a repeat.
  const said = saidOnce !== undefined && sessionId !== undefined && context.hook.source === 'resume' ? await saidOnce.said(sessionId).catch(() => NOTHING_SAID) : NOTHING_SAID;
  const refreshWithinMs = Math.max(50, context.config.recallTimeoutMs - (Date.now() - startedAt) - ANSWER_MARGIN_MS);
  const [brief, loops] = await Promise.all([
    memory.tier.brief({ ...(sessionId === undefined ? {} : { sessionId }), said, refreshWithinMs }),
    briefLoops(memory, context.config.settings.loops?.expireDays ?? DEFAULT_LOOP_EXPIRE_DAYS, said, now()),
  ]);
  if (brief === undefined) return { outcome: 'no-workspace' };
  // Open loops are kept on this machine: named even when no tier was ever read.
  const rendered = brief.found || loops.length > 0 ? await renderBrief(brief, context.config.briefBudget, now(), loops) : undefined;
  if (saidOnce !== undefined && sessionId !== undefined) await boundedTierWrite(recordBrief(saidOnce, context, sessionId, rendered?.said ?? {}));
  const extra = brief.unavailable ? { detail: 'graphiti-unavailable' } : {};
  if (rendered === undefined) return !brief.found && brief.unavailable ? { outcome: 'no-brief', detail: 'graphiti-unavailable', drain: true } : { outcome: 'empty', drain: brief.refreshDue, ...extra };
  const outcome = brief.found ? `brief (${describeAge(brief.updatedAt, now())} old)` : 'brief (open loops only)';
  return { outcome, context: rendered.text, drain: brief.refreshDue, ...extra };
}

/** Records what the brief gave; only a resumed conversation still holds what was given before. */
async function recordBrief(store: FileSaidOnceStore, context: HookContext, sessionId: string, said: SaidMemory): Promise<void> {
  await store.record(sessionId, said, { fresh: context.hook.source !== 'resume' });
  // Old sessions' records go now and then: a session start is rare enough to pay for it.
  await store.expire();
}
