// UserPromptSubmit: recall for the prompt under the deadline, rendered as the same
// `<graphiti_memory>` block as `@memory`; when Graphiti misses the deadline, the local tier's
// matching facts, marked as cached with their age. Nothing found: nothing printed.
import { fitMemoryBlock } from '@graphiti-memory/prompt-elements';
import { workspaceTierFile, type HandlerResult } from './handler-result.js';
import type { HookContext } from './hook-context.js';
import type { HookMemory } from './hook-memory.js';
import { readTier, renderCachedRecall, withRecalledFacts, writeTier } from './local-tier.js';

/** Token budget of the recalled block (the chat participant uses the prompt's room; hooks get this). */
export const HOOK_RECALL_BUDGET = 2_000;
/** Time kept back from the deadline for rendering, logging and handing the answer to the runner. */
const RENDER_MARGIN_MS = 75;

/** ≈ 4 characters a token, as memory-core estimates (a real tokenizer would cost the hook its start). */
function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export async function handlePromptSubmit(context: HookContext, memory: HookMemory, startedAt: number, now: () => Date): Promise<HandlerResult> {
  const prompt = context.hook.prompt?.trim();
  if (prompt === undefined || prompt === '') return { outcome: 'empty-prompt' };
  // `recall.enabled: false` (the default until the user turns recall on): the prompt never leaves.
  if (!context.config.settings.recall.enabled) return { outcome: 'recall-off' };
  // The prompt is sent as a search query: the secret guard runs on it first.
  const query = (await memory.guard.redact(prompt)).text;
  const remaining = Math.max(50, context.config.recallTimeoutMs - (Date.now() - startedAt) - RENDER_MARGIN_MS);
  // The scopes are the configuration's `recall.scopes` (memory-core's default for a recall).
  const result = await memory.recall.recall(query, {
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
