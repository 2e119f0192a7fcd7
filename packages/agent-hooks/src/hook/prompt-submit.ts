// UserPromptSubmit: recall for the prompt under the deadline, rendered as the same
// `<graphiti_memory>` block as `@memory`; when Graphiti misses the deadline, the local tier's
// matching facts, marked as cached with their age. Nothing found: nothing printed. Recalled facts
// go into the tier with their group, so a session's facts are only ever shown in that session.
import { fitMemoryBlock } from '@graphiti-memory/prompt-elements';
import type { HandlerResult } from './handler-result.js';
import type { HookContext } from './hook-context.js';
import type { HookMemory } from './hook-memory.js';
import { estimateTokens, renderCachedRecall, type TierFact } from './local-tier.js';
import { boundedTierWrite, LocalTierStore } from './local-tier-store.js';

/** Token budget of the recalled block (the chat participant uses the prompt's room; hooks get this). */
export const HOOK_RECALL_BUDGET = 2_000;
/** Time kept back from the deadline for rendering, logging and handing the answer to the runner. */
const RENDER_MARGIN_MS = 75;

export async function handlePromptSubmit(context: HookContext, memory: HookMemory, startedAt: number, now: () => Date): Promise<HandlerResult> {
  const prompt = context.hook.prompt?.trim();
  if (prompt === undefined || prompt === '') return { outcome: 'empty-prompt' };
  // `recall.enabled: false` (the default until the user turns recall on): the prompt never leaves.
  if (!context.config.settings.recall.enabled) return { outcome: 'recall-off' };
  // The prompt is sent as a search query: the secret guard runs on it first.
  const query = (await memory.guard.redact(prompt)).text;
  const remaining = Math.max(50, context.config.recallTimeoutMs - (Date.now() - startedAt) - RENDER_MARGIN_MS);
  // The scopes are the configuration's `recall.scopes` (memory-core's default for a recall).
  const sessionId = context.hook.sessionId;
  const recalledAt = now();
  const [result, groups] = await Promise.all([
    memory.recall.recall(query, { maxFacts: context.config.maxFacts, timeoutMs: remaining, ...(sessionId === undefined ? {} : { sessionId }) }),
    memory.groups.resolveMany(['session', 'workspace', 'user', 'team'], sessionId === undefined ? {} : { sessionId }),
  ]);
  const groupOf = new Map(groups.map((group) => [group.scope, group.groupId]));
  const workspace = groupOf.get('workspace');
  const store = new LocalTierStore(context.stateDirectory, now);
  const missed = result.timedOut || (result.errors.length > 0 && result.errors.length >= result.scopes.length);
  if (result.facts.length > 0) {
    const fitted = await fitMemoryBlock(result.facts, HOOK_RECALL_BUDGET, estimateTokens);
    if (workspace !== undefined) {
      const facts = result.facts.flatMap((fact): TierFact[] => {
        const groupId = groupOf.get(fact.scope);
        // A fact is cached only with its group: without it, a session fact could not be kept to its session.
        return groupId === undefined ? [] : [{ ...fact, groupId }];
      });
      // The tier is a cache: writing it must not cost the prompt its recall.
      await boundedTierWrite(store.addRecalledFacts(context.endpoint, workspace, facts, recalledAt));
    }
    if (fitted !== undefined) return { outcome: result.timedOut ? 'context-partial' : 'context', context: fitted.text };
  }
  if (missed) {
    const tier = workspace === undefined ? undefined : await store.read(context.endpoint, workspace);
    const cached = await renderCachedRecall(tier, query, context.config.maxFacts, HOOK_RECALL_BUDGET, now(), groupOf.get('session'));
    const detail = result.timedOut ? 'deadline' : (result.errors[0]?.errorClass ?? 'error');
    if (cached !== undefined) return { outcome: 'cached', context: cached, detail };
    return { outcome: 'missed', detail };
  }
  return { outcome: 'empty' };
}
