// The stale check on Node: whether paths a recalled fact names still exist under the workspace's
// folders. Names only (`statSync`), never contents; at most `MAX_STALE_CHECKS` paths per call. A
// path counts as the workspace's when its first segment exists in a folder (`src/old.ts` while
// `src/` is there); `lodash/fp` or `TypeScript/JavaScript` are never called gone.
import { statSync } from 'node:fs';
import path from 'node:path';
import { MAX_STALE_CHECKS, type WorkspaceFiles } from '@graphiti-memory/memory-core';

export class NodeWorkspaceFiles implements WorkspaceFiles {
  /** `folders`: the workspace's folders, read at each check (a window's folders change). */
  constructor(private readonly folders: () => readonly string[]) {}

  gone(paths: readonly string[]): Promise<readonly string[]> {
    const roots = this.folders().map((folder) => path.resolve(folder));
    const gone: string[] = [];
    if (roots.length === 0) return Promise.resolve(gone);
    for (const relative of paths.slice(0, MAX_STALE_CHECKS)) {
      const segments = relative.split('/');
      const first = segments[0];
      if (first === undefined || segments.length < 2 || segments.some((segment) => segment === '' || segment === '..')) continue;
      const owners = roots.filter((root) => exists(path.join(root, first)));
      if (owners.length > 0 && !owners.some((root) => exists(path.join(root, ...segments)))) gone.push(relative);
    }
    return Promise.resolve(gone);
  }
}

function exists(target: string): boolean {
  try {
    return statSync(target, { throwIfNoEntry: false }) !== undefined;
  } catch {
    // Unreadable (permissions): not known to be gone.
    return true;
  }
}
