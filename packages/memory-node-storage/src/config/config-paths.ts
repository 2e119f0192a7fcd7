// Where Graphiti Memory's configuration lives on this machine: one user-level folder shared by every
// tool (the extension, the harness, agent hooks), and a project file found from the workspace up to
// its repository's root.
import fs from 'node:fs';
import path from 'node:path';
import envPaths from 'env-paths';

/** Overrides the user config folder (tests, portable setups). */
export const CONFIG_DIRECTORY_VARIABLE = 'GRAPHITI_MEMORY_CONFIG_DIR';
export const USER_CONFIG_FILE_NAME = 'config.json';
export const API_KEY_FILE_NAME = 'api-key';
export const PROJECT_CONFIG_FILE_NAME = '.graphiti-memory.json';

export type Environment = Readonly<Record<string, string | undefined>>;

/** `graphiti-memory` in the user's config folder (XDG on Linux, Library/Preferences, %APPDATA%). */
export function userConfigDirectory(env: Environment = process.env): string {
  const override = env[CONFIG_DIRECTORY_VARIABLE];
  if (override !== undefined && override.trim() !== '') return path.resolve(override);
  return envPaths('graphiti-memory', { suffix: '' }).config;
}

export function userConfigPath(env: Environment = process.env): string {
  return path.join(userConfigDirectory(env), USER_CONFIG_FILE_NAME);
}

export function apiKeyFilePath(env: Environment = process.env): string {
  return path.join(userConfigDirectory(env), API_KEY_FILE_NAME);
}

/** A project file found but not read, and why (owned by another user). */
export interface RefusedProjectFile {
  readonly file: string;
  readonly why: string;
}

export interface ProjectConfigLookup {
  /** The nearest readable `.graphiti-memory.json` within the repository, if any. */
  readonly file: string | undefined;
  readonly refused: readonly RefusedProjectFile[];
}

/**
 * The nearest `.graphiti-memory.json` from `folder` up to its repository's root (the nearest folder
 * holding `.git`; without one, `folder` itself): a file in a parent folder outside the repository
 * (a shared `/tmp`, another user's home) is never read. On POSIX, a file owned by another user is
 * refused, not read.
 */
export function lookupProjectConfig(folder: string): ProjectConfigLookup {
  const start = path.resolve(folder);
  const root = repositoryRoot(start) ?? start;
  const refused: RefusedProjectFile[] = [];
  let current = start;
  for (;;) {
    const candidate = path.join(current, PROJECT_CONFIG_FILE_NAME);
    const stat = statOrUndefined(candidate);
    if (stat?.isFile() === true) {
      const uid = process.getuid?.();
      if (uid === undefined || stat.uid === uid) return { file: candidate, refused };
      refused.push({ file: candidate, why: `owned by another user (uid ${stat.uid}); not read` });
    } else if (stat !== undefined) {
      // A link to `/dev/zero`, a pipe or a folder under the config file's name: said, never read.
      refused.push({ file: candidate, why: 'not a regular file (a device, a pipe or a folder); not read' });
    }
    const parent = path.dirname(current);
    if (current === root || parent === current) return { file: undefined, refused };
    current = parent;
  }
}

/** `lookupProjectConfig`'s file. */
export function findProjectConfig(folder: string): string | undefined {
  return lookupProjectConfig(folder).file;
}

/** The nearest folder from `start` up that holds `.git` (a folder, or a worktree's file). */
function repositoryRoot(start: string): string | undefined {
  let current = start;
  for (;;) {
    if (statOrUndefined(path.join(current, '.git')) !== undefined) return current;
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

function statOrUndefined(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
}
