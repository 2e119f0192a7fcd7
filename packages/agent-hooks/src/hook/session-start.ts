// SessionStart: the workspace brief from the local tier, printed even when Graphiti is down or
// slow. A tier that was never read from Graphiti (cold: no file yet, a new format, or only what a
// promote or forget wrote here) gets one bounded refresh first; a stale one is refreshed in the
// background by the drainer. The brief shows this session's facts only, never another session's.
// How many memories await review is said always; the brief follows `recall.enabled`.
// What the brief gives is recorded for the session (hashes only), so the session's recalls do not
// say it again; a new, cleared or compacted conversation starts that record anew, a resumed one adds.
import type { SaidMemory } from '@graphiti-memory/memory-core';
import type { HookContext } from './hook-context.js';
import type { HookMemory } from './hook-memory.js';
import type { HandlerResult } from './handler-result.js';
import { FileSaidOnceStore } from '@graphiti-memory/memory-node-storage';
import { briefOf, describeAge, emptyTier, refreshTier, withRefresh, type TierRefresh } from './local-tier.js';
import { refreshableTierGroups, tierGroupsOf } from './tier-groups.js';
import { boundedTierWrite, LocalTierStore } from './local-tier-store.js';
import { pendingNotice, withPendingNotice } from './pending-notice.js';
import { deliveryFooter, withDeliveryFooter } from './delivery-footer.js';

/** A tier read from Graphiti longer ago than this is refreshed in the background after SessionStart. */
const TIER_STALE_MS = 10 * 60_000;
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
  const groups = await tierGroupsOf(memory.groups, context.config.settings.team.consent, sessionId);
  if (groups === undefined) return { outcome: 'no-workspace' };
  const { workspace, session, ...tierGroups } = groups;
  const store = new LocalTierStore(context.stateDirectory, now);
  let tier = await store.read(context.endpoint, workspace);
  let drain = tier?.refreshedAt === undefined || now().getTime() - Date.parse(tier.refreshedAt) > TIER_STALE_MS;
  let detail: string | undefined;
  if (tier?.refreshedAt === undefined) {
    // Cold: one bounded read now, so the brief says what memory holds, not only what was done here.
    let refresh: TierRefresh | undefined;
    try {
      const remaining = Math.max(50, context.config.recallTimeoutMs - (Date.now() - startedAt) - ANSWER_MARGIN_MS);
      const readable = await refreshableTierGroups(memory.forgotten, { workspace, ...tierGroups });
      if (readable === undefined) throw new Error('the workspace group was forgotten; its delete is still owed');
      refresh = await refreshTier(memory.api, memory.guard, readable, now, AbortSignal.timeout(remaining));
      drain = false;
    } catch {
      detail = 'graphiti-unavailable';
    }
    if (refresh !== undefined) {
      // The brief comes from what was read; writing it down must not cost this session its brief.
      await boundedTierWrite(store.saveRefresh(context.endpoint, workspace, refresh));
      tier = withRefresh(tier ?? emptyTier(context.endpoint, workspace, now()), refresh, now());
    }
  }
  const rendered = await briefOf(tier, context.config.briefBudget, now(), session);
  if (sessionId !== undefined) await boundedTierWrite(recordBrief(context, sessionId, rendered?.said ?? {}));
  const brief = rendered?.text;
  const extra = detail === undefined ? {} : { detail };
  if (brief === undefined) return tier === undefined && detail !== undefined ? { outcome: 'no-brief', detail, drain: true } : { outcome: 'empty', drain, ...extra };
  return { outcome: tier === undefined ? 'brief' : `brief (${describeAge(tier.updatedAt, now())} old)`, context: brief, drain, ...extra };
}

/** Records what the brief gave; only a resumed conversation still holds what was given before. */
async function recordBrief(context: HookContext, sessionId: string, said: SaidMemory): Promise<void> {
  const store = new FileSaidOnceStore({ stateDirectory: context.stateDirectory, endpoint: context.endpoint });
  await store.record(sessionId, said, { fresh: context.hook.source !== 'resume' });
  // Old sessions' records go now and then: a session start is rare enough to pay for it.
  await store.expire();
}
