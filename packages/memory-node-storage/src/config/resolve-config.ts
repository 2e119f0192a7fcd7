// One configuration from every source, in this order of precedence: command-line flags >
// environment > project `.graphiti-memory.json` > user `config.json` > defaults. Consent and the
// user key come from the user config only: a repository cannot grant itself consent.
import { normaliseEndpoint } from '@graphiti-memory/memory-core';
import { checkConfigValues, readConfigFile, type ConfigScope, type ConfigValues, type HookConsent, type ServerKind } from './config-file.js';
import { findProjectConfig, userConfigPath, type Environment } from './config-paths.js';

export const CONFIG_ENVIRONMENT_VARIABLES = {
  enabled: 'GRAPHITI_MEMORY_ENABLED',
  endpoint: 'GRAPHITI_MEMORY_ENDPOINT',
  server: 'GRAPHITI_MEMORY_SERVER',
  scopes: 'GRAPHITI_MEMORY_SCOPES',
  stateDir: 'GRAPHITI_MEMORY_STATE_DIR',
} as const;

export const DEFAULT_RECALL_TIMEOUT_MS = 750;
export const DEFAULT_MAX_FACTS = 10;
export const DEFAULT_BRIEF_BUDGET = 1_500;

export type ConfigOrigin = 'flag' | 'env' | 'project' | 'user' | 'default';

export interface ResolvedMemoryConfig {
  readonly enabled: boolean;
  /** Normalised; `undefined` when no source names one. */
  readonly endpoint: string | undefined;
  readonly server: ServerKind;
  readonly scopes: readonly ConfigScope[] | undefined;
  /** Per-request timeout; `undefined` = the tool's own default. */
  readonly timeoutMs: number | undefined;
  readonly recallTimeoutMs: number;
  readonly maxFacts: number;
  readonly filter: string | undefined;
  readonly briefBudget: number;
  readonly groupIdStrategy: 'hashed' | 'raw';
  readonly stateDir: string | undefined;
  readonly userKey: string | undefined;
  /** From the user config only. */
  readonly consent: HookConsent | undefined;
  readonly files: { readonly user: string; readonly project: string | undefined };
  /** Where each value that was set came from. */
  readonly origins: Readonly<Record<string, ConfigOrigin>>;
}

export type ConfigResolution =
  | { readonly ok: true; readonly config: ResolvedMemoryConfig }
  | { readonly ok: false; readonly problems: readonly string[]; readonly message: string };

export interface ResolveConfigOptions {
  /** Values from command-line flags (already typed). */
  readonly flags?: ConfigValues;
  readonly env?: Environment;
  /** Where to look for `.graphiti-memory.json` (this folder and its parents). */
  readonly workspaceFolder: string;
}

export async function resolveMemoryConfig(options: ResolveConfigOptions): Promise<ConfigResolution> {
  const env = options.env ?? process.env;
  const userFile = userConfigPath(env);
  const projectFile = findProjectConfig(options.workspaceFolder);
  const [user, project] = await Promise.all([readConfigFile(userFile), projectFile === undefined ? undefined : readConfigFile(projectFile)]);
  const fromEnvironment = environmentValues(env);
  const flags = options.flags === undefined ? undefined : checkConfigValues(options.flags, 'command line');
  const problems = [user, project, fromEnvironment, flags].flatMap((read) => (read !== undefined && !read.ok ? read.problems : []));
  if (problems.length > 0) {
    return { ok: false, problems, message: `Graphiti Memory's configuration is invalid: ${problems.join('; ')}.` };
  }
  const layers: Array<[ConfigOrigin, ConfigValues]> = [
    ['user', user.ok ? user.values : {}],
    ['project', project?.ok === true ? withoutUserOnlyKeys(project.values) : {}],
    ['env', fromEnvironment.ok ? fromEnvironment.values : {}],
    ['flag', flags?.ok === true ? flags.values : {}],
  ];
  const merged: Record<string, unknown> = {};
  const origins: Record<string, ConfigOrigin> = {};
  for (const [origin, values] of layers) {
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) continue;
      if (key === 'recall' || key === 'brief') {
        merged[key] = { ...(merged[key] as object | undefined), ...(value as object) };
      } else {
        merged[key] = value;
      }
      origins[key] = origin;
    }
  }
  const values = merged as ConfigValues;
  const endpoint = values.endpoint === undefined || values.endpoint.trim() === '' ? undefined : (normaliseEndpoint(values.endpoint) ?? undefined);
  const userValues = user.ok ? user.values : {};
  return {
    ok: true,
    config: {
      enabled: values.enabled ?? false,
      endpoint,
      server: values.server ?? 'auto',
      scopes: values.scopes,
      timeoutMs: values.timeoutMs,
      recallTimeoutMs: values.recall?.timeoutMs ?? DEFAULT_RECALL_TIMEOUT_MS,
      maxFacts: values.recall?.maxFacts ?? DEFAULT_MAX_FACTS,
      filter: values.filter,
      briefBudget: values.brief?.budget ?? DEFAULT_BRIEF_BUDGET,
      groupIdStrategy: values.groupIdStrategy === 'raw' ? 'raw' : 'hashed',
      stateDir: values.stateDir,
      userKey: userValues.userKey,
      consent: userValues.consent,
      files: { user: userFile, project: projectFile },
      origins,
    },
  };
}

/** Consent, the user key and the state folder are the user's, never a repository's. */
function withoutUserOnlyKeys(values: ConfigValues): ConfigValues {
  const { consent: _consent, userKey: _userKey, stateDir: _stateDir, ...rest } = values;
  return rest;
}

function environmentValues(env: Environment): ReturnType<typeof checkConfigValues> {
  const raw: Record<string, unknown> = {};
  const problems: string[] = [];
  const enabled = env[CONFIG_ENVIRONMENT_VARIABLES.enabled]?.trim().toLowerCase();
  if (enabled !== undefined && enabled !== '') {
    if (['1', 'true', 'yes', 'on'].includes(enabled)) raw['enabled'] = true;
    else if (['0', 'false', 'no', 'off'].includes(enabled)) raw['enabled'] = false;
    else problems.push(`${CONFIG_ENVIRONMENT_VARIABLES.enabled}: must be true or false (got ${JSON.stringify(enabled)})`);
  }
  const text = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const endpoint = text(CONFIG_ENVIRONMENT_VARIABLES.endpoint);
  if (endpoint !== undefined) raw['endpoint'] = endpoint;
  const server = text(CONFIG_ENVIRONMENT_VARIABLES.server);
  if (server !== undefined) raw['server'] = server;
  const scopes = text(CONFIG_ENVIRONMENT_VARIABLES.scopes);
  if (scopes !== undefined) raw['scopes'] = scopes.split(',').map((scope) => scope.trim());
  const stateDir = text(CONFIG_ENVIRONMENT_VARIABLES.stateDir);
  if (stateDir !== undefined) raw['stateDir'] = stateDir;
  if (problems.length > 0) return { ok: false, problems };
  return checkConfigValues(raw, 'environment');
}

/** Bounds of the recall deadline, as memory-core's settings put them. */
