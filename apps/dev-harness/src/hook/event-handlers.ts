// What each hook event does once consent and config are settled. Every handler returns an outcome
// (and the text to print, if any); failures surface as exceptions only to be logged by runHook.
import { fitMemoryBlock } from '@graphiti-memory/prompt-elements';
import type { MemoryScope } from '@graphiti-memory/memory-core';
import type { HookContext } from './hook-context.js';
import type { HookMemory } from './hook-memory.js';
import { describeAge, readTier, refreshTier, renderBrief, renderCachedRecall, tierFile, withRecalledFacts, writeTier } from './local-tier.js';
import { captureTranscript, readTranscriptTurns } from './transcript-capture.js';

export interface HandlerResult {
  readonly outcome: string;
  /** `additionalContext` to print. */
  readonly context?: string;
  readonly detail?: string;
  /** Start the background drainer after printing (deliveries, or a stale tier to refresh). */
  readonly drain?: boolean;
}

/** Token budget of the recalled block (the chat participant uses the prompt's room; hooks get this). */
export const HOOK_RECALL_BUDGET = 2_000;
/** A tier older than this is refreshed in the background after SessionStart. */
const TIER_STALE_MS = 10 * 60_000;
/** Time kept back from the deadline for rendering and printing. */
const RENDER_MARGIN_MS = 40;

function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export async function workspaceTierFile(context: HookContext, memory: HookMemory): Promise<string | undefined> {
  const workspace = await memory.groups.resolve('workspace');
  return workspace === undefined ? undefined : tierFile(context.stateDirectory, context.endpoint, workspace);
}

export async function handlePromptSubmit(context: HookContext, memory: HookMemory, startedAt: number, now: () => Date): Promise<HandlerResult> {
  const prompt = context.hook.prompt?.trim();
  if (prompt === undefined || prompt === '') return { outcome: 'empty-prompt' };
  // The prompt is sent as a search query: the secret guard runs on it first.
  const query = (await memory.guard.redact(prompt)).text;
  const remaining = Math.max(50, context.config.recallTimeoutMs - (Date.now() - startedAt) - RENDER_MARGIN_MS);
  const scopes: readonly MemoryScope[] | 'all' = context.config.scopes ?? 'all';
  const result = await memory.recall.recall(query, {
    scopes,
    maxFacts: context.config.maxFacts,
    timeoutMs: remaining,
    ...(context.hook.sessionId === undefined ? {} : { sessionId: context.hook.sessionId }),
  });
  const file = await workspaceTierFile(context, memory);
  const tier = file === undefined ? undefined : await readTier(file);
  const missed = result.timedOut || (result.errors.length > 0 && result.errors.length >= result.scopes.length);
  if (result.facts.length > 0) {
    const fitted = await fitMemoryBlock(result.facts, HOOK_RECALL_BUDGET, estimateTokens);
    if (file !== undefined) await writeTier(file, withRecalledFacts(tier, result.facts, now()));
    if (fitted !== undefined) return { outcome: result.timedOut ? 'context-partial' : 'context', context: fitted.text };
  }
  if (missed) {
    const cached = renderCachedRecall(tier, query, context.config.maxFacts, HOOK_RECALL_BUDGET, now());
    const detail = result.timedOut ? 'deadline' : (result.errors[0]?.errorClass ?? 'error');
    if (cached !== undefined) return { outcome: 'cached', context: cached, detail };
    return { outcome: 'missed', detail };
  }
  return { outcome: 'empty' };
}

export async function handleSessionStart(context: HookContext, memory: HookMemory, now: () => Date): Promise<HandlerResult> {
  const file = await workspaceTierFile(context, memory);
  if (file === undefined) return { outcome: 'no-workspace' };
  let tier = await readTier(file);
  let drain = tier === undefined || now().getTime() - Date.parse(tier.updatedAt) > TIER_STALE_MS;
  if (tier === undefined) {
    // No cache yet: one bounded attempt now, so the first session already gets a brief.
    const signal = AbortSignal.timeout(context.config.recallTimeoutMs);
    const groups = await memory.groups.resolveMany(['workspace', 'user']);
    const workspace = groups.find((group) => group.scope === 'workspace')?.groupId;
    const user = groups.find((group) => group.scope === 'user')?.groupId;
    if (workspace !== undefined) {
      try {
        tier = await refreshTier(memory.client, { workspace, ...(user === undefined ? {} : { user }) }, undefined, now, signal);
        await writeTier(file, tier);
        drain = false;
      } catch {
        return { outcome: 'no-brief', detail: 'graphiti-unavailable', drain: true };
      }
    }
  }
  const brief = renderBrief(tier, context.config.briefBudget, now());
  if (brief === undefined) return { outcome: 'empty', drain };
  return { outcome: tier === undefined ? 'brief' : `brief (${describeAge(tier.updatedAt, now())} old)`, context: brief, drain };
}

export async function handleSessionStop(context: HookContext, memory: HookMemory): Promise<HandlerResult> {
  const transcriptPath = context.hook.transcriptPath;
  if (transcriptPath === undefined) return { outcome: 'no-transcript' };
  const turns = await readTranscriptTurns(transcriptPath, context.hook.sessionId, context.config.filter);
  if (!Array.isArray(turns)) return { outcome: turns.outcome };
  const captured = await captureTranscript(memory, context.stateDirectory, transcriptPath, turns);
  return captured.outcome === 'queued' ? { outcome: 'queued', detail: `${captured.turns} turns`, drain: true } : { outcome: captured.outcome, drain: true };
}
