// UserPromptSubmit: recall for the prompt under the deadline, rendered as the same
// `<graphiti_memory>` block as `@memory`; when Graphiti misses the deadline, the local tier's
// matching facts, marked as cached with their age. Nothing found: nothing printed. Recalled facts
// go into the tier with their group, so a session's facts are only ever shown in that session.
// Say it once: what the session's brief or earlier recalls already gave it (the host keeps it in the
// conversation; Copilot's agent loop only for the turn, see context-lifetime.ts) is left out unless
// it changed, and what this recall gives is recorded.
import { NOTHING_SAID, recallQueryOf, unsaidFacts, type RecalledFact } from '@graphiti-memory/memory-core';
import { FileSaidOnceStore } from '@graphiti-memory/memory-node-storage';
import { fitMemoryBlock, orderByRank } from '@graphiti-memory/prompt-elements';
import type { HandlerResult } from './handler-result.js';
import type { HookContext } from './hook-context.js';
import type { HookMemory } from './hook-memory.js';
import { estimateTokens, renderCachedRecall } from './brief-lines.js';
import { boundedTierWrite } from './bounded-write.js';
import { contextLifetime } from './context-lifetime.js';
import { assistantDescriptor } from '../assistants/assistant-registry.js';
import { markSessionStarted, sessionStartSettled } from './session-starting.js';

/** Token budget of the recalled block (the chat participant uses the prompt's room; hooks get this). */
export const HOOK_RECALL_BUDGET = 2_000;
/** Time kept back from the deadline for rendering, logging and handing the answer to the runner. */
const RENDER_MARGIN_MS = 75;
/** Kept back from the prompt hook's own timeout when it waits for a brief not begun yet. */
const HOOK_TIMEOUT_MARGIN_MS = 2_000;

export async function handlePromptSubmit(context: HookContext, memory: HookMemory, startedAt: number, now: () => Date): Promise<HandlerResult> {
  const prompt = context.hook.prompt?.trim();
  if (prompt === undefined || prompt === '') return { outcome: 'empty-prompt' };
  // `recall.enabled: false` (the default until the user turns recall on): the prompt never leaves.
  if (!context.config.settings.recall.enabled) return { outcome: 'recall-off' };
  // The prompt is sent as a search query: a bounded slice of it (recall's own rule; recall applies it
  // too, and runs the secret guard on the slice before anything leaves).
  const query = recallQueryOf(prompt);
  const remaining = Math.max(50, context.config.recallTimeoutMs - (Date.now() - startedAt) - RENDER_MARGIN_MS);
  // The scopes are the configuration's `recall.scopes` (memory-core's default for a recall).
  const sessionId = context.hook.sessionId;
  const saidOnce = sessionId === undefined ? undefined : new FileSaidOnceStore({ stateDirectory: context.stateDirectory, endpoint: context.endpoint });
  const [result, said] = await Promise.all([
    memory.recall.recall(query, { maxFacts: context.config.maxFacts, timeoutMs: remaining, ...(sessionId === undefined ? {} : { sessionId }) }),
    // An unreadable record costs a repeat, never the recall. A brief of this session still running
    // beside this prompt (Copilot CLI runs them at once) is waited for: what it gives is not said again.
    saidOnce === undefined || sessionId === undefined
      ? NOTHING_SAID
      : briefSettled(context, sessionId).then(() => saidOnce.said(sessionId).catch(() => NOTHING_SAID)),
  ]);
  const missed = result.timedOut || (result.errors.length > 0 && result.errors.length >= result.scopes.length);
  if (result.facts.length > 0) {
    const unsaid = await unsaidFacts(result.facts, said);
    const fitted = unsaid.length === 0 ? undefined : await fitMemoryBlock(unsaid, HOOK_RECALL_BUDGET, estimateTokens);
    const writes: Array<Promise<unknown>> = [];
    if (saidOnce !== undefined && sessionId !== undefined) writes.push(recordGiven(saidOnce, sessionId, context, fitted === undefined ? [] : given(unsaid, fitted.keptIndexes)));
    // Recall recorded its facts in the tier (with their groups, so a session's stay in that session): wait for it briefly.
    writes.push(memory.tier.flush());
    // Both records are bounded waits: neither may cost the prompt its recall.
    await boundedTierWrite(Promise.all(writes.map((write) => write.catch(() => undefined))));
    if (fitted !== undefined) return { outcome: result.timedOut ? 'context-partial' : 'context', context: fitted.text };
    // Everything found was given to this session before: nothing new to say.
    if (unsaid.length === 0) return { outcome: 'said-before', detail: `${result.facts.length} facts` };
  }
  // Where hook context lasts one turn, what this turn was given is gone by the next prompt.
  if (saidOnce !== undefined && sessionId !== undefined && contextLifetime(context.hook) === 'turn') await boundedTierWrite(saidOnce.record(sessionId, {}, { fresh: true }));
  if (missed) {
    const tier = await memory.tier.cachedRecall(query, { maxFacts: context.config.maxFacts, said, ...(sessionId === undefined ? {} : { sessionId }) });
    const cached = tier === undefined ? undefined : await renderCachedRecall(tier, 'Graphiti did not answer in time', HOOK_RECALL_BUDGET, now());
    const detail = result.timedOut ? 'deadline' : (result.errors[0]?.errorClass ?? 'error');
    if (cached !== undefined) return { outcome: 'cached', context: cached, detail };
    return { outcome: 'missed', detail };
  }
  return { outcome: 'empty' };
}

/**
 * Waits for a brief of this session still running beside this prompt. An assistant that starts
 * the two together (its descriptor's `startsBesidePrompt`) may run this prompt before the brief's
 * process has marked its session: then the brief is waited for, within the prompt hook's timeout.
 */
async function briefSettled(context: HookContext, sessionId: string): Promise<void> {
  const assistant = context.hook.assistant === undefined ? undefined : assistantDescriptor(context.hook.assistant);
  const expectBriefWithinMs = assistant?.startsBesidePrompt === true ? Math.max(0, assistant.timeoutSeconds.UserPromptSubmit * 1_000 - HOOK_TIMEOUT_MARGIN_MS) : undefined;
  await sessionStartSettled(context.stateDirectory, sessionId, { briefDeadlineMs: context.config.recallTimeoutMs, ...(expectBriefWithinMs === undefined ? {} : { expectBriefWithinMs }) });
  // Waited out: later prompts of the session do not wait again.
  if (expectBriefWithinMs !== undefined) await markSessionStarted(context.stateDirectory, sessionId);
}

/** The facts of `unsaid` the block kept (it orders them by rank). */
function given(unsaid: readonly RecalledFact[], keptIndexes: readonly number[]): RecalledFact[] {
  const ordered = orderByRank(unsaid);
  return keptIndexes.flatMap((index) => {
    const fact = ordered[index];
    return fact === undefined ? [] : [fact];
  });
}

/**
 * Records what this prompt gave. Where the host keeps hook context for one turn only (Copilot's
 * agent loop), the next prompt starts with nothing given: the record is emptied instead.
 */
function recordGiven(store: FileSaidOnceStore, sessionId: string, context: HookContext, facts: readonly RecalledFact[]): Promise<void> {
  if (contextLifetime(context.hook) === 'turn') return store.record(sessionId, {}, { fresh: true });
  return facts.length === 0 ? Promise.resolve() : store.record(sessionId, { facts });
}
