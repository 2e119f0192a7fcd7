// The group ids of versions before issue 21, when the workspace group came from the repository
// alone (so teammates on one server shared it) and the session group from the session id alone.
// Kept only so `migrate` can find what an existing install stored there.
import type { GroupIdStrategy } from '../settings/memory-settings.js';
import { folderIdentity, hashedGroupId, normaliseGitRemote, rawGroupId } from './group-ids.js';

/** The old, shared workspace group of a repository (its remote, else its folders); `undefined` without either. */
export async function legacyWorkspaceGroupId(
  strategy: GroupIdStrategy,
  workspace: { readonly gitRemote?: string | undefined; readonly folderUris: readonly string[] },
): Promise<string | undefined> {
  const remote = workspace.gitRemote === undefined ? '' : normaliseGitRemote(workspace.gitRemote);
  const folders = folderIdentity(workspace.folderUris);
  const identity = remote !== '' ? { source: 'git-remote', value: remote } : folders === undefined ? undefined : { source: 'folders', value: folders };
  if (identity === undefined) return undefined;
  return strategy === 'raw' ? rawGroupId('workspace', identity.value) : hashedGroupId('workspace', `${identity.source}:${identity.value}`);
}

/** The old session group of a chat session id. */
export async function legacySessionGroupId(strategy: GroupIdStrategy, sessionId: string): Promise<string> {
  return strategy === 'raw' ? rawGroupId('session', sessionId) : hashedGroupId('session', `session:${sessionId}`);
}
