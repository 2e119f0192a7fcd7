// The git remote of a folder, read from its git config file: the same answer `git remote get-url
// origin` gives the harness and the agent hooks, available at once, without a git process and
// without waiting for VS Code's git extension (which may activate late, or never). One source
// for every tool keeps one repository in one workspace group.
import fs from 'node:fs';
import path from 'node:path';
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

/** Picks `origin`'s url from git config text, else the first remote's. */
export function remoteFromConfig(text: string): string | undefined {
  const urls = new Map<string, string>();
  let section: string | undefined;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*remote\s+"([^"]+)"\s*\]$/.exec(line);
    if (header) {
      section = header[1];
      continue;
    }
    if (line.startsWith('[')) {
      section = undefined;
      continue;
    }
    const entry = /^url\s*=\s*(.+)$/i.exec(line);
    if (section !== undefined && entry && !urls.has(section)) urls.set(section, unquote(entry[1] ?? ''));
  }
  return urls.get('origin') ?? urls.values().next().value;
}

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

function unquote(value: string): string {
  const trimmed = value.trim();
  return trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1) : trimmed;
}
