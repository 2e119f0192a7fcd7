// Where Graphiti Memory's configuration lives on this machine: one user-level folder shared by every
// tool (the extension, the harness, agent hooks), and a project file found from the workspace up.
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

/** The nearest `.graphiti-memory.json` from `folder` up to the file system's root, if any. */
export function findProjectConfig(folder: string): string | undefined {
  let current = path.resolve(folder);
  for (;;) {
    const candidate = path.join(current, PROJECT_CONFIG_FILE_NAME);
    try {
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here: look in the parent.
    }
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}
