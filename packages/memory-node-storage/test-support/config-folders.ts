// Helpers for configuration tests: a repository with a project file and a user config folder of
// its own, fresh for each test, and the configuration resolved from them.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { userConfigPath } from '../src/config/config-paths.js';
import { resolveMemoryConfig, type ResolvedMemoryConfig } from '../src/config/resolve-config.js';
import { temporaryDirectory } from './journal-fixtures.js';

export interface ConfigFolders {
  /** The repository (it has a `.git` folder), the workspace folder of every resolution. */
  readonly repo: string;
  /** `<repo>/.graphiti-memory.json`. */
  readonly projectFile: string;
  /** Points the user config and the state folder into the test's folder. */
  readonly env: Record<string, string>;
  /** Writes the project file (and the user file, when given), then resolves; throws on a configuration problem. */
  resolveWith(project: unknown, user?: unknown): Promise<ResolvedMemoryConfig>;
}

export async function configFolders(prefix: string): Promise<ConfigFolders> {
  const root = await temporaryDirectory(prefix);
  const repo = path.join(root, 'repo');
  const projectFile = path.join(repo, '.graphiti-memory.json');
  await fs.mkdir(path.join(repo, '.git'), { recursive: true });
  const env = { GRAPHITI_MEMORY_CONFIG_DIR: path.join(root, 'config'), GRAPHITI_MEMORY_STATE_DIR: path.join(root, 'state') };
  return {
    repo,
    projectFile,
    env,
    async resolveWith(project, user) {
      await fs.writeFile(projectFile, JSON.stringify(project));
      if (user !== undefined) {
        await fs.mkdir(path.dirname(userConfigPath(env)), { recursive: true });
        await fs.writeFile(userConfigPath(env), JSON.stringify(user));
      }
      const resolution = await resolveMemoryConfig({ workspaceFolder: repo, env });
      if (!resolution.ok) throw new Error(resolution.message);
      return resolution.config;
    },
  };
}
