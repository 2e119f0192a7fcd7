// The group ids of versions before issue 21, when the workspace group came from the repository
// alone (so teammates on one server shared it) and the session group from the session id alone.
// Kept only so `migrate` can find what an existing install stored there.
import type { GroupIdStrategy } from '../settings/memory-settings.js';
import { groupIdOf, repositoryIdentity } from './group-id-resolver.js';

/** The old, shared workspace group of a repository (its remote, else its folders); `undefined` without either. */
export async function legacyWorkspaceGroupId(
  strategy: GroupIdStrategy,
  workspace: { readonly gitRemote?: string | undefined; readonly folderUris: readonly string[] },
): Promise<string | undefined> {
  // Today's resolver, without the owner the workspace identity now carries.
  const identity = repositoryIdentity(workspace);
  return identity === undefined ? undefined : groupIdOf(strategy, 'workspace', identity);
}

/** The old session group of a chat session id (the session alone, no owner). */
export async function legacySessionGroupId(strategy: GroupIdStrategy, sessionId: string): Promise<string> {
  return groupIdOf(strategy, 'session', { source: 'session', value: sessionId });
}
