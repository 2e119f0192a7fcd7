// "Where we left off" (seed 004's episode bridge): the workspace's last finished session other than
// the current one — when it ended, in which assistant, its first prompt line — and the decisions
// promoted while it ran, from the tier (fed by delivered session digests and promotions).
import type { TierContent, TierPromotion, TierSession } from './tier-content.js';

/** A decision counts as the session's when promoted from shortly before its first digest to shortly after its last. */
const BEFORE_SESSION_MS = 2 * 60 * 60_000;
const AFTER_SESSION_MS = 15 * 60_000;
const MAX_BRIDGE_DECISIONS = 3;

export interface TierBridge {
  readonly session: TierSession;
  /** Decisions promoted while it ran, newest first. */
  readonly decisions: readonly TierPromotion[];
  /** What say-it-once records for it: the same bridge is not told twice in one session. */
  readonly saidKey: string;
}

export function bridgeOf(tier: TierContent, currentSession?: string): TierBridge | undefined {
  const last = tier.sessions?.find((session) => session.session !== currentSession);
  if (last === undefined) return undefined;
  const from = Date.parse(last.startedAt) - BEFORE_SESSION_MS;
  const to = Date.parse(last.endedAt) + AFTER_SESSION_MS;
  const decisions = tier.promoted
    .filter((promotion) => promotion.kind === 'decision' && Date.parse(promotion.createdAt) >= from && Date.parse(promotion.createdAt) <= to)
    .slice(0, MAX_BRIDGE_DECISIONS);
  return { session: last, decisions, saidKey: `where we left off: ${last.session} ${last.endedAt}` };
}
