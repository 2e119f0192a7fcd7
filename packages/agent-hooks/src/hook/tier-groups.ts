// The groups of a workspace's local tier (SessionStart's brief and the drainer's refresh agree on
// them), and the ones a refresh may read: not one whose delete a forget still owes (it ran while
// Graphiti was unreachable), or the refresh would bring what was forgotten back into the brief.
import type { ForgetLedger, GroupIdResolver, MemoryScope } from '@graphiti-memory/memory-core';
import type { TierGroups } from './local-tier.js';

/** The tier's groups, and the session's own group when a session is named (its facts alone of all session facts are shown). */
export interface WorkspaceTierGroups extends TierGroups {
  readonly session?: string;
}

/**
 * The workspace's tier groups: workspace, user, the team's only with the user's consent to the team
 * scope (without it nothing is read from there), and the session's when `sessionId` is given;
 * `undefined` when there is no workspace group (no workspace, no tier).
 */
export async function tierGroupsOf(resolver: GroupIdResolver, teamConsent: boolean, sessionId?: string): Promise<WorkspaceTierGroups | undefined> {
  const scopes: MemoryScope[] = ['workspace', 'user', ...(sessionId === undefined ? [] : (['session'] as const)), ...(teamConsent ? (['team'] as const) : [])];
  const groups = await resolver.resolveMany(scopes, sessionId === undefined ? {} : { sessionId });
  const groupOf = (scope: MemoryScope): string | undefined => groups.find((group) => group.scope === scope)?.groupId;
  const [workspace, user, team, session] = [groupOf('workspace'), groupOf('user'), groupOf('team'), groupOf('session')];
  if (workspace === undefined) return undefined;
  return { workspace, ...(user === undefined ? {} : { user }), ...(team === undefined ? {} : { team }), ...(session === undefined ? {} : { session }) };
}

/** `groups` without the ones whose delete is owed; `undefined` when the workspace group's is (no refresh then). */
export async function refreshableTierGroups(forgotten: ForgetLedger, groups: TierGroups): Promise<TierGroups | undefined> {
  let owed: Set<string>;
  try {
    owed = new Set((await forgotten.read()).groups.filter((group) => group.deletionOwed).map((group) => group.groupId));
  } catch {
    // Unknown: reading nothing is the safe side.
    return undefined;
  }
  if (owed.has(groups.workspace)) return undefined;
  return {
    workspace: groups.workspace,
    ...(groups.user === undefined || owed.has(groups.user) ? {} : { user: groups.user }),
    ...(groups.team === undefined || owed.has(groups.team) ? {} : { team: groups.team }),
  };
}
