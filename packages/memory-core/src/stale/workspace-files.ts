// The stale check's one outside thing: whether paths a recalled fact names still exist in the
// workspace. Node binds memory-node-storage's `NodeWorkspaceFiles`; hosts without a file system
// (the browser) bind nothing, and facts are then never marked.

/**
 * Of workspace-relative paths (`/`-separated, no `..`), the ones that name something of the
 * workspace that no longer exists. Looks at names only (stat), never at contents; answers within
 * a few milliseconds for the bounded list recall gives it (`MAX_STALE_CHECKS`).
 */
export interface WorkspaceFiles {
  gone(paths: readonly string[]): Promise<readonly string[]>;
}
export const WorkspaceFiles = Symbol.for('graphiti-memory.WorkspaceFiles');

/** `recall.stale`: mark facts naming a path that is gone, leave them out, or do not check. */
export const STALE_SETTINGS = ['mark', 'drop', 'off'] as const;
export type StaleSetting = (typeof STALE_SETTINGS)[number];
