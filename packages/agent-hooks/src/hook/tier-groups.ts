// The groups a local-tier refresh may read: not one whose delete a forget still owes (it ran while
// Graphiti was unreachable), or the refresh would bring what was forgotten back into the brief.
import type { ForgetLedger } from '@graphiti-memory/memory-core';
import type { TierGroups } from './local-tier.js';

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
