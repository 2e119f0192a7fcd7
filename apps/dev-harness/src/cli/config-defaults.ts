// The harness's commands read the same configuration as the extension and agent hooks: options
// not given on the command line come from the environment, the project's `.graphiti-memory.json`
// and the user's `config.json` (flags > env > project > user > defaults), and the API key from
// GRAPHITI_API_KEY or the key file.
import path from 'node:path';
import { readApiKey, resolveMemoryConfig } from '@graphiti-memory/memory-node-storage';
import { API_KEY_ENVIRONMENT_VARIABLE, type RawCommonOptions } from './common-options.js';
import { UsageError } from './harness-errors.js';

export interface ConfigEnvironment {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** `raw` with the configured endpoint, state folder, scopes, timeout and key filled in where not given. */
export async function withConfigDefaults<T extends RawCommonOptions>(raw: T, environment: ConfigEnvironment): Promise<T> {
  const workspaceFolder = path.resolve(environment.cwd, raw.workspace ?? '.');
  const resolution = await resolveMemoryConfig({ workspaceFolder, env: environment.env });
  if (!resolution.ok) throw new UsageError(`${resolution.message} Fix the file named above (or remove the value), then run the command again.`);
  const { config } = resolution;
  let apiKey = raw.apiKey;
  const fromEnvironment = environment.env[API_KEY_ENVIRONMENT_VARIABLE];
  if (apiKey === undefined && (fromEnvironment === undefined || fromEnvironment === '')) {
    const key = await readApiKey(environment.env);
    if (!key.ok) throw new UsageError(`${key.problem}.`);
    apiKey = key.key;
  }
  return {
    ...raw,
    ...(raw.endpoint === undefined && config.endpoint !== undefined ? { endpoint: config.endpoint } : {}),
    ...(raw.stateDir === undefined && config.stateDir !== undefined ? { stateDir: config.stateDir } : {}),
    ...(raw.scopes === undefined && config.scopes !== undefined ? { scopes: config.scopes.join(',') } : {}),
    ...(raw.timeoutMs === undefined && config.timeoutMs !== undefined ? { timeoutMs: String(config.timeoutMs) } : {}),
    ...(apiKey === undefined ? {} : { apiKey }),
  };
}
