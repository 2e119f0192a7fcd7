// SessionStart: the workspace brief from the local tier, printed even when Graphiti is down or
// slow; the first session of a workspace (no tier yet) tries one bounded refresh, and a stale tier
// is refreshed in the background by the drainer.
import type { HookContext } from './hook-context.js';
import type { HookMemory } from './hook-memory.js';
import { workspaceTierFile, type HandlerResult } from './handler-result.js';
import { describeAge, readTier, refreshTier, renderBrief, writeTier } from './local-tier.js';

/** A tier older than this is refreshed in the background after SessionStart. */
const TIER_STALE_MS = 10 * 60_000;

export async function handleSessionStart(context: HookContext, memory: HookMemory, now: () => Date): Promise<HandlerResult> {
  // The brief is memory put into the prompt: it follows `recall.enabled` as recall does.
  if (!context.config.settings.recall.enabled) return { outcome: 'recall-off' };
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
