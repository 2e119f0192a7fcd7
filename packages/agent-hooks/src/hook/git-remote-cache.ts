// The workspace's git remote names its workspace scope, but asking `git` costs two process spawns
// on every prompt. The answer is kept per folder in the state folder and reused while the
// repository's `.git/config` (where remotes live) is unchanged; the first run, a changed config,
// or a worktree's `.git` file go to `git` itself, so the remote is always what git reports.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { makePrivateFolder, PRIVATE_FILE_MODE } from '@graphiti-memory/memory-node-storage';
import { readGitFacts, type GitFacts } from '../composition/git-facts.js';

interface CacheEntry {
  readonly configPath: string;
  readonly configMtimeMs: number;
  readonly remote: string | null;
}

/** `.git/config` of the repository holding `folder`; `null` when no `.git` is above it; `undefined` when unsure (a `.git` file). */
async function gitConfigOf(folder: string): Promise<string | null | undefined> {
  let current = path.resolve(folder);
  for (;;) {
    try {
      const stat = await fs.stat(path.join(current, '.git'));
      return stat.isDirectory() ? path.join(current, '.git', 'config') : undefined;
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return null;
      current = parent;
    }
  }
}

/** Git facts for recall: the remote only, from the cache when `.git/config` did not change. */
export async function readGitRemoteCached(folder: string, stateDirectory: string): Promise<GitFacts> {
  const config = await gitConfigOf(folder);
  if (config === null) return {};
  const cacheFile = path.join(stateDirectory, 'hooks', 'git', `${createHash('sha256').update(path.resolve(folder)).digest('hex').slice(0, 24)}.json`);
  let mtime: number | undefined;
  if (config !== undefined) {
    try {
      mtime = (await fs.stat(config)).mtimeMs;
      const cached = JSON.parse(await fs.readFile(cacheFile, 'utf8')) as CacheEntry;
      if (cached.configPath === config && cached.configMtimeMs === mtime) return cached.remote === null ? {} : { remote: cached.remote };
    } catch {
      // No cache yet (or no config): ask git.
    }
  }
  const facts = await readGitFacts(folder);
  if (config !== undefined && mtime !== undefined) {
    try {
      await makePrivateFolder(path.dirname(cacheFile));
      const entry: CacheEntry = { configPath: config, configMtimeMs: mtime, remote: facts.remote ?? null };
      // Atomic, under a name of its own per write: concurrent prompts of one hook server share this file.
      await writeFileAtomic(cacheFile, JSON.stringify(entry), { mode: PRIVATE_FILE_MODE });
    } catch {
      // Not cached: the next run asks git again.
    }
  }
  return facts;
}
