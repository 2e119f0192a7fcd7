// The git remote of a folder, read from its git config file: the same answer `git remote get-url
// origin` gives the harness and the agent hooks, available at once, without a git process and
// without waiting for VS Code's git extension (which may activate late, or never). One source
// for every tool keeps one repository in one workspace group.
import fs from 'node:fs';
import path from 'node:path';
import { remoteFromGitConfig } from '@graphiti-memory/agent-hooks';
import { readSafeTextFileSync } from '@graphiti-memory/memory-node-storage';

/** The `origin` remote's URL (else the first remote's), or `undefined` when there is none. */
export function readGitConfigRemote(folder: string): string | undefined {
  const configFile = gitConfigFile(folder);
  if (configFile === undefined) return undefined;
  let text: string;
  try {
    // Bounded, a regular file of this user, no link out of the folder: a repository is not ours.
    text = readSafeTextFileSync(configFile, configFile === path.join(folder, '.git', 'config') ? { root: folder } : {});
  } catch {
    return undefined;
  }
  return remoteFromConfig(text);
}

/** Picks `origin`'s url from git config text, else the first remote's: the rule the hooks use (one parser). */
export const remoteFromConfig = remoteFromGitConfig;

/** `.git/config`, or for a linked worktree or submodule (`.git` is a file) the common git dir's config. */
function gitConfigFile(folder: string): string | undefined {
  const dotGit = path.join(folder, '.git');
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dotGit);
  } catch {
    return undefined;
  }
  if (stat.isDirectory()) return path.join(dotGit, 'config');
  try {
    const pointer = /^gitdir:\s*(.+)$/m.exec(readSafeTextFileSync(dotGit, { maxBytes: 64 * 1024 }));
    if (!pointer?.[1]) return undefined;
    const gitDirectory = path.resolve(folder, pointer[1].trim());
    const common = readOptional(path.join(gitDirectory, 'commondir'));
    return path.join(common === undefined ? gitDirectory : path.resolve(gitDirectory, common.trim()), 'config');
  } catch {
    return undefined;
  }
}

function readOptional(file: string): string | undefined {
  try {
    return readSafeTextFileSync(file, { maxBytes: 64 * 1024 });
  } catch {
    return undefined;
  }
}
