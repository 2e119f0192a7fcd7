// The harness's commands read the same configuration as the extension and agent hooks: flags >
// env > the project's `.graphiti-memory.json` > the user's `config.json` > defaults, resolved once
// per command (with where each value came from), and the API key from GRAPHITI_API_KEY or the key
// file. The flags enter the resolution as its top layer, so `config show` names them as the origin.
import path from 'node:path';
import { GRAPHITI_SERVER_CHOICES } from '@graphiti-memory/graphiti-client';
import {
  readApiKey,
  resolveMemoryConfig,
  type ConfigKey,
  type ConfigResolution,
  type ConfigValues,
  type ResolvedMemoryConfig,
} from '@graphiti-memory/memory-node-storage';
import { API_KEY_ENVIRONMENT_VARIABLE, MAX_ATTEMPTS_BOUNDS, TIMEOUT_BOUNDS, type RawCommonOptions } from './common-options.js';
import { UsageError } from './harness-errors.js';
import { parseEndpoint, parseInteger } from './option-parsers.js';

export interface ConfigEnvironment {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The flags that are configuration values, by the config key they set. */
export const CONFIG_FLAGS: Readonly<Partial<Record<ConfigKey, string>>> = {
  endpoint: '--endpoint',
  server: '--server',
  timeoutMs: '--timeout-ms',
  maxAttempts: '--max-attempts',
  stateDir: '--state-dir',
};

export interface ConfiguredOptions<T extends RawCommonOptions> {
  /** `raw` with every value the command line left open taken from the configuration. */
  readonly raw: T;
  readonly configuration: ResolvedMemoryConfig;
}

/**
 * Resolves the configuration with `raw`'s flags on top and fills what the command line left open.
 * `sources: 'flags'` reads no file and no variable (the demo and bench: an in-process emulator by
 * design; the hook commands: their own configuration). Throws UsageError naming the bad file or flag.
 */
export async function configureOptions<T extends RawCommonOptions>(
  raw: T,
  environment: ConfigEnvironment,
  sources: 'all' | 'flags' = 'all',
  /** `salvage`: a bad user config.json applies its valid values (each bad one in `ignored`) instead of failing. */
  options: { readonly salvage?: boolean } = {},
): Promise<ConfiguredOptions<T>> {
  const resolution = await resolveConfiguration(raw, environment, sources, options.salvage === true ? 'salvage' : 'strict');
  if (!resolution.ok) {
    throw new UsageError(`${resolution.message} Fix the file, variable or flag named there (or remove the value), then run the command again; \`graphiti-harness config show\` lists every value and where it came from.`);
  }
  const { config } = resolution;
  const configured = (key: ConfigKey): boolean => config.origins[key] !== 'default';
  let apiKey = raw.apiKey;
  const fromEnvironment = environment.env[API_KEY_ENVIRONMENT_VARIABLE];
  if (sources === 'all' && apiKey === undefined && (fromEnvironment === undefined || fromEnvironment === '')) {
    const key = await readApiKey(environment.env);
    if (!key.ok) throw new UsageError(`${key.problem}.`);
    apiKey = key.key;
  }
  const { settings } = config;
  return {
    configuration: config,
    raw: {
      ...raw,
      ...(raw.endpoint === undefined && settings.endpoint !== undefined ? { endpoint: settings.endpoint } : {}),
      ...(raw.server === undefined && configured('server') ? { server: settings.server } : {}),
      ...(raw.stateDir === undefined && settings.stateDir !== undefined ? { stateDir: settings.stateDir } : {}),
      ...(raw.timeoutMs === undefined && configured('timeoutMs') ? { timeoutMs: String(settings.timeoutMs) } : {}),
      ...(raw.maxAttempts === undefined && configured('maxAttempts') ? { maxAttempts: String(settings.maxAttempts) } : {}),
      ...(apiKey === undefined ? {} : { apiKey }),
    },
  };
}

/** The configuration with `raw`'s flags on top; problems of files and variables are returned, a malformed flag throws UsageError. */
export function resolveConfiguration(
  raw: RawCommonOptions,
  environment: ConfigEnvironment,
  sources: 'all' | 'flags' = 'all',
  userFile: 'strict' | 'salvage' = 'strict',
): Promise<ConfigResolution> {
  return resolveMemoryConfig({
    userFile,
    workspaceFolder: path.resolve(environment.cwd, raw.workspace ?? '.'),
    env: environment.env,
    flags: flagValues(raw, environment.cwd),
    flagNames: CONFIG_FLAGS,
    sources,
    cwd: environment.cwd,
  });
}

/** The configuration values given as flags, typed; each bad one is a UsageError naming the flag. */
function flagValues(raw: RawCommonOptions, cwd: string): ConfigValues {
  const server = raw.server;
  if (server !== undefined && !(GRAPHITI_SERVER_CHOICES as readonly string[]).includes(server)) {
    throw new UsageError(`--server ${JSON.stringify(server)} is not a server kind; use auto, rest or mcp.`);
  }
  const stateDir = raw.stateDir === undefined || raw.stateDir.trim() === '' ? undefined : path.resolve(cwd, raw.stateDir);
  return {
    ...(raw.endpoint === undefined ? {} : { endpoint: parseEndpoint(raw.endpoint) }),
    ...(server === undefined ? {} : { server: server as ConfigValues['server'] & string }),
    ...(raw.timeoutMs === undefined ? {} : { timeoutMs: parseInteger(raw.timeoutMs, '--timeout-ms', TIMEOUT_BOUNDS) }),
    ...(raw.maxAttempts === undefined ? {} : { maxAttempts: parseInteger(raw.maxAttempts, '--max-attempts', MAX_ATTEMPTS_BOUNDS) }),
    ...(stateDir === undefined ? {} : { stateDir }),
  };
}
