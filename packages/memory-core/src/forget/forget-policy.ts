// Which groups one forget covers. The workspace means its group and every session group that ran
// in it; the user scope only ever when named, since promoted user memories follow the user.
import type { MemoryScope } from '../ports.js';
import type { GroupRecord } from '../registry/group-registry.js';

export type ForgetRequest =
  | { readonly scope: 'workspace' }
  /**
   * The repository's shared team group: only the episodes this user wrote there (the registry's
   * `episodeNames`), or the whole group with `allAuthors`. `ForgetService.forget` handles it.
   */
  | { readonly scope: 'team'; readonly allAuthors?: boolean }
  | { readonly scope: 'session'; readonly sessionId: string }
  | { readonly scope: 'user' }
  /** Every group of the registry; user-scope groups only with `includeUser`. */
  | { readonly all: true; readonly includeUser?: boolean };

/** The ids that identify this workspace and user now (`undefined` when they cannot be known). */
export interface CurrentGroups {
  readonly workspace?: string;
  readonly user?: string;
  readonly team?: string;
  /** The workspace's structured mirror group: forgotten with the workspace. */
  readonly mirror?: string;
  /** The group of the session named in the request, when it has one. */
  readonly session?: string;
}

/** One group a forget covers, and why. */
export interface ForgetTarget {
  readonly groupId: string;
  readonly scope: MemoryScope;
  readonly sessionId?: string;
}

/** The groups `request` covers, registry order first, without duplicates. */
export function forgetTargets(request: ForgetRequest, records: readonly GroupRecord[], current: CurrentGroups): ForgetTarget[] {
  const targets = new Map<string, ForgetTarget>();
  const add = (groupId: string | undefined, scope: MemoryScope, sessionId?: string): void => {
    if (groupId !== undefined && !targets.has(groupId)) targets.set(groupId, { groupId, scope, ...(sessionId === undefined ? {} : { sessionId }) });
  };
  const addRecord = (record: GroupRecord): void => add(record.groupId, record.scope, record.sessionId);

  if ('all' in request) {
    // The team group is shared with others: only a team forget touches it, and only this user's part.
    for (const record of records) if (record.scope !== 'team' && (record.scope !== 'user' || request.includeUser === true)) addRecord(record);
    if (request.includeUser === true) add(current.user, 'user');
    return [...targets.values()];
  }
  switch (request.scope) {
    case 'workspace':
      if (current.workspace === undefined) return [];
      for (const record of records) {
        const inWorkspace =
          record.groupId === current.workspace ||
          record.groupId === current.mirror ||
          ((record.scope === 'session' || record.scope === 'mirror') && record.workspaceKey === current.workspace);
        if (inWorkspace) addRecord(record);
      }
      add(current.workspace, 'workspace');
      add(current.mirror, 'mirror');
      break;
    case 'session':
      for (const record of records) if (record.scope === 'session' && (record.sessionId === request.sessionId || record.groupId === current.session)) addRecord(record);
      add(current.session, 'session', request.sessionId);
      break;
    case 'user':
      for (const record of records) if (record.scope === 'user') addRecord(record);
      add(current.user, 'user');
      break;
    case 'team':
      add(current.team, 'team');
      break;
  }
  return [...targets.values()];
}
