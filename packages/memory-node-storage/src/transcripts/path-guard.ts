// Which files a watcher may read: only real files under its root. A path with a `..` segment, a
// path that resolves outside the root, or a symlink whose target lies outside it is refused, so a
// crafted transcript link can never make the watcher read (and send) an unrelated file.
import { promises as fs } from 'node:fs';
import path from 'node:path';

export type PathRefusal = 'parent-segment' | 'outside-root' | 'symlink-escape' | 'missing';

export type PathCheck =
  | { readonly ok: true; readonly realPath: string }
  | { readonly ok: false; readonly reason: PathRefusal };

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Checks `candidate` (absolute, or relative to `root`) against `root`. Never throws. */
export async function checkPathUnderRoot(root: string, candidate: string): Promise<PathCheck> {
  if (candidate.split(/[\\/]+/).includes('..')) return { ok: false, reason: 'parent-segment' };
  const resolvedRoot = path.resolve(root);
  const resolved = path.resolve(resolvedRoot, candidate);
  if (!isInside(resolvedRoot, resolved)) return { ok: false, reason: 'outside-root' };
  let realRoot: string;
  let realPath: string;
  try {
    realRoot = await fs.realpath(resolvedRoot);
    realPath = await fs.realpath(resolved);
  } catch {
    return { ok: false, reason: 'missing' };
  }
  if (!isInside(realRoot, realPath)) return { ok: false, reason: 'symlink-escape' };
  return { ok: true, realPath };
}
