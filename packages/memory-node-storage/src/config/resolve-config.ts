// One configuration from every source, in this order of precedence: command-line flags >
// environment > project `.graphiti-memory.json` > user `config.json` > defaults. Consent, the user
// key and the state folder come from the user's own sources only: a repository cannot grant itself
// consent or move where memory is kept. An untrusted project file may only narrow what is sent
// (project-narrowing.ts); what it would widen is ignored and named in `ignored`.
import path from 'node:path';
import {
  DEFAULT_SETTINGS,
  normaliseEndpoint,
  type CaptureGranularity,
  type DigestWriterSetting,
  type GroupIdStrategy,
  type IngestScopeSetting,
  type RecallScopesSetting,
  type StaleSetting,
  type TranscriptFilterOption,
} from '@graphiti-memory/memory-core';
import {
  checkConfigValues,
  ingestScopesOf,
  readConfigFile,
  readConfigFileSync,
  type ConfigFileRead,
  type ConfigScope,
  type ConfigValues,
  type HookConsent,
  type ServerKind,
} from './config-file.js';
import { lookupProjectConfig, userConfigPath, type Environment, type RefusedProjectFile } from './config-paths.js';
import { narrowedFilter, wideningReason } from './project-narrowing.js';
import { readTrustedProjectFiles, readTrustedProjectFilesSync, type TrustedProjectFiles } from './project-trust.js';
import { configuredStateDirectory, stateDirectoryOf, type StateFolderSources } from '../state/state-layout.js';

export const CONFIG_ENVIRONMENT_VARIABLES = {
  enabled: 'GRAPHITI_MEMORY_ENABLED',
  endpoint: 'GRAPHITI_MEMORY_ENDPOINT',
  server: 'GRAPHITI_MEMORY_SERVER',
  scopes: 'GRAPHITI_MEMORY_SCOPES',
  stateDir: 'GRAPHITI_MEMORY_STATE_DIR',
} as const;

export const DEFAULT_RECALL_TIMEOUT_MS = DEFAULT_SETTINGS.recall.timeoutMs;
export const DEFAULT_MAX_FACTS = DEFAULT_SETTINGS.recall.maxFacts;
export const DEFAULT_BRIEF_BUDGET = 1_500;

/** Where a value came from: a file origin's path is in `ResolvedMemoryConfig.files`. */
export type ConfigOrigin = 'flag' | 'env' | 'project' | 'user' | 'default';

/** Every value a tool honours, after the merge, with the file's names (VS Code's `serverKind` is `server`). */
export interface ConfigSettings {
  readonly enabled: boolean;
  /** Normalised; `undefined` when no source names one. */
  readonly endpoint: string | undefined;
  readonly server: ServerKind;
  /** Per-request timeout to Graphiti. */
  readonly timeoutMs: number;
  readonly maxBatchSize: number;
  readonly maxQueueSize: number;
  readonly maxMessageChars: number;
  readonly maxAttempts: number;
  readonly maxAgeHours: number;
  /** Where captured turns go (`user` is reached by promotion only). */
  readonly scopes: IngestScopeSetting;
  readonly groupIdStrategy: GroupIdStrategy;
  readonly includeGitMetadata: boolean;
  readonly includeSystemMessages: boolean;
  readonly autoPromote: { readonly enabled: boolean; readonly review: boolean };
  /** Which scopes a recall searches: `recall.scopes`. */
  readonly recall: { readonly enabled: boolean; readonly timeoutMs: number; readonly maxFacts: number; readonly scopes: RecallScopesSetting; readonly stale: StaleSetting };
  /** The opt-in team scope: consent (who can read it) and the name stored with what this user shares. */
  readonly team: { readonly consent: boolean; readonly displayName: string };
  readonly capture: {
    readonly vscodeChat: boolean;
    readonly claudeCode: boolean;
    readonly backfillTurns: number;
    /** `session`: digests (one episode per group per session segment); `turn`: one per message. */
    readonly granularity: CaptureGranularity;
    readonly idleMinutes: number;
    readonly digestTurns: number;
    /** `chatModel`: VS Code's chat model writes digests (the filtered digest elsewhere, and on any failure). */
    readonly digestWriter: DigestWriterSetting;
    /** The chat model for `chatModel` digests (family or id); empty: the first available. */
    readonly digestModel: string;
  };
  /** Transcript filter: a preset or per-kind modes over one; `undefined` = the transcript reader's default (`compact`). */
  readonly filter: TranscriptFilterOption | undefined;
  readonly brief: { readonly budget: number };
  /** The structured mirror: on only by the user's own sources (a project file, trusted or not, may only turn it off). */
  readonly mirror: { readonly enabled: boolean };
  /** Open loops: one untouched `expireDays` is no longer nudged and shows as stale. */
  /** `proposeWithModel`: the chat model proposes loops for review (VS Code only; a project file may only turn it off). */
  readonly loops: { readonly expireDays: number; readonly proposeWithModel: boolean };
  /** `undefined` = the tool's default state folder. */
  readonly stateDir: string | undefined;
}

/** Every value as `config show` lists it, by dotted key (`recall.maxFacts`). */
export type ConfigKey =
  | Exclude<keyof ConfigSettings, 'autoPromote' | 'recall' | 'capture' | 'brief' | 'team' | 'mirror' | 'loops'>
  | `mirror.${keyof ConfigSettings['mirror']}`
  | `team.${keyof ConfigSettings['team']}`
  | `autoPromote.${keyof ConfigSettings['autoPromote']}`
  | `recall.${keyof ConfigSettings['recall']}`
  | `capture.${keyof ConfigSettings['capture']}`
  | `brief.${keyof ConfigSettings['brief']}`
  | `loops.${keyof ConfigSettings['loops']}`;

export const DEFAULT_CONFIG_SETTINGS: ConfigSettings = {
  enabled: DEFAULT_SETTINGS.enabled,
  endpoint: undefined,
  server: DEFAULT_SETTINGS.serverKind,
  timeoutMs: DEFAULT_SETTINGS.timeoutMs,
  maxBatchSize: DEFAULT_SETTINGS.maxBatchSize,
  maxQueueSize: DEFAULT_SETTINGS.maxQueueSize,
  maxMessageChars: DEFAULT_SETTINGS.maxMessageChars,
  maxAttempts: DEFAULT_SETTINGS.maxAttempts,
  maxAgeHours: DEFAULT_SETTINGS.maxAgeHours,
  scopes: DEFAULT_SETTINGS.scopes,
  groupIdStrategy: DEFAULT_SETTINGS.groupIdStrategy,
  includeGitMetadata: DEFAULT_SETTINGS.includeGitMetadata,
  includeSystemMessages: DEFAULT_SETTINGS.includeSystemMessages,
  autoPromote: { ...DEFAULT_SETTINGS.autoPromote },
  recall: { ...DEFAULT_SETTINGS.recall },
  team: { ...DEFAULT_SETTINGS.team },
  capture: { ...DEFAULT_SETTINGS.capture },
  filter: undefined,
  brief: { budget: DEFAULT_BRIEF_BUDGET },
  mirror: { ...DEFAULT_SETTINGS.mirror },
  loops: { ...DEFAULT_SETTINGS.loops },
  stateDir: undefined,
};

/** A project file's value that was not applied (or a project file not read: `key` is `*`), and why. */
export interface IgnoredProjectKey {
  readonly file: string;
  readonly key: string;
  readonly why: string;
}

export interface ResolvedMemoryConfig {
  /** Every value in force. */
  readonly settings: ConfigSettings;
  /** Where each value of `settings` came from (`default` when no source set it). */
  readonly origins: Readonly<Record<ConfigKey, ConfigOrigin>>;
  /** The user file's path (whether or not it exists) and the project file found, if any. */
  readonly files: { readonly user: string; readonly project: string | undefined };
  /** Whether the user trusts the project file's current content (`config trust`): then it may widen too. */
  readonly projectTrusted: boolean;
  /** The sha256 of the project file's content as read for this configuration (what trust is keyed by); `undefined` without a readable one. */
  readonly projectDigest?: string;
  /** What of the project file was not applied, and why; empty when nothing was ignored. */
  readonly ignored: readonly IgnoredProjectKey[];
  readonly userKey: string | undefined;
  /** From the user config only. */
  readonly consent: HookConsent | undefined;

  // Flat views kept for callers not yet moved to `settings` and `memorySettingsFor`.
  readonly enabled: boolean;
  readonly endpoint: string | undefined;
  readonly server: ServerKind;
  /** The capture scopes as a list; `undefined` when no source set `scopes`. */
  readonly scopes: readonly ConfigScope[] | undefined;
  /** `undefined` when no source set it (the tool's own default applies). */
  readonly timeoutMs: number | undefined;
  readonly recallTimeoutMs: number;
  readonly maxFacts: number;
  readonly filter: TranscriptFilterOption | undefined;
  readonly briefBudget: number;
  readonly groupIdStrategy: GroupIdStrategy;
  readonly stateDir: string | undefined;
}

export type ConfigResolution =
  | { readonly ok: true; readonly config: ResolvedMemoryConfig }
  | { readonly ok: false; readonly problems: readonly string[]; readonly message: string };

export interface ResolveConfigOptions {
  /** Values from command-line flags (already typed). */
  readonly flags?: ConfigValues;
  /** How problems name flag keys (`timeoutMs` → `--timeout-ms`). */
  readonly flagNames?: Readonly<Record<string, string>>;
  readonly env?: Environment;
  /** Where to look for `.graphiti-memory.json` (this folder and its parents); `undefined` = no project (VS Code without a folder). */
  readonly workspaceFolder: string | undefined;
  /** `flags`: only flags and defaults (no files, no environment), for commands that must not be redirected (the demo). Default `all`. */
  readonly sources?: 'all' | 'flags';
  /** What a relative `--state-dir` or `GRAPHITI_MEMORY_STATE_DIR` is relative to. Default: the process's working folder. */
  readonly cwd?: string;
  /**
   * `strict` (default): a bad user config.json is an error. `salvage`: its valid values apply and
   * each bad one is ignored and named in `ignored` (forget, pending, audit, outbox, doctor and
   * uninstall must work whatever the configuration says).
   */
  readonly userFile?: 'strict' | 'salvage';
}

interface SourceReads {
  readonly user: ConfigFileRead;
  readonly project: ConfigFileRead | undefined;
  readonly trusted: TrustedProjectFiles;
}

interface SourceFiles {
  readonly userFile: string;
  readonly projectFile: string | undefined;
  readonly refused: readonly RefusedProjectFile[];
}

export async function resolveMemoryConfig(options: ResolveConfigOptions): Promise<ConfigResolution> {
  const files = filesOf(options);
  if (options.sources === 'flags') return merge(options, files, { user: EMPTY, project: undefined, trusted: {} });
  const [user, project] = await Promise.all([
    readConfigFile(files.userFile, userFileKind(options)),
    files.projectFile === undefined ? undefined : readConfigFile(files.projectFile, 'project', projectFileRead(files.projectFile)),
  ]);
  const trusted = files.projectFile === undefined ? {} : await readTrustedProjectFiles(trustFolder(options, user));
  return merge(options, files, { user, project, trusted });
}

/** `resolveMemoryConfig`, synchronously (small files): for VS Code's synchronous `SettingsSource.read()`. */
export function resolveMemoryConfigSync(options: ResolveConfigOptions): ConfigResolution {
  const files = filesOf(options);
  if (options.sources === 'flags') return merge(options, files, { user: EMPTY, project: undefined, trusted: {} });
  const user = readConfigFileSync(files.userFile, userFileKind(options));
  const project = files.projectFile === undefined ? undefined : readConfigFileSync(files.projectFile, 'project', projectFileRead(files.projectFile));
  const trusted = files.projectFile === undefined ? {} : readTrustedProjectFilesSync(trustFolder(options, user));
  return merge(options, files, { user, project, trusted });
}

const EMPTY: ConfigFileRead = { ok: true, values: {}, exists: false };

/** A salvaged user file is read as leniently as a project file: each bad value ignored and named. */
function userFileKind(options: ResolveConfigOptions): 'user' | 'project' {
  return options.userFile === 'salvage' ? 'project' : 'user';
}

/**
 * Settings a project file never sets, trusted or not: how long and how often the shared outbox
 * retries, and how much it holds. They decide what happens to every project's queued turns (one
 * drainer serves the state folder), so they are the user's alone.
 */
export const DELIVERY_KEYS = ['maxAttempts', 'maxAgeHours', 'maxQueueSize', 'maxBatchSize'] as const;

/** Switches a project file may turn off but never on, even when the user trusts it. */
export const NEVER_ON_FROM_PROJECT: readonly string[] = ['mirror.enabled', 'loops.proposeWithModel'];

function filesOf(options: ResolveConfigOptions): SourceFiles {
  const env = options.env ?? process.env;
  const lookup = options.sources === 'flags' || options.workspaceFolder === undefined ? { file: undefined, refused: [] } : lookupProjectConfig(options.workspaceFolder);
  return { userFile: userConfigPath(env), projectFile: lookup.file, refused: lookup.refused };
}

/** The state folder that holds the user's trust: from the user's own sources only (flag, variable, user file). */
function trustFolder(options: ResolveConfigOptions, user: ConfigFileRead): string {
  return stateDirectoryOf(stateFolderSources(options, user));
}

function stateFolderSources(options: ResolveConfigOptions, user: ConfigFileRead): StateFolderSources {
  return {
    flag: options.flags?.stateDir,
    // `flags` reads no variable (and no file: `user` is empty then).
    env: options.sources === 'flags' ? {} : (options.env ?? process.env),
    userConfig: user,
    userConfigFile: userConfigPath(options.env ?? process.env),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  };
}

function merge(options: ResolveConfigOptions, sourceFiles: SourceFiles, reads: SourceReads): ConfigResolution {
  const { userFile, projectFile } = sourceFiles;
  const { user, project } = reads;
  const fromEnvironment = options.sources === 'flags' ? EMPTY : environmentValues(options.env ?? process.env);
  const flags = options.flags === undefined ? undefined : checkConfigValues(options.flags, 'command line', options.flagNames);
  // A project file's problems are never fatal: it is read leniently (its bad keys are in `ignored`).
  const problems = [user, fromEnvironment, flags].flatMap((read) => (read !== undefined && !read.ok ? read.problems : []));
  if (problems.length > 0) {
    return { ok: false, problems, message: `Graphiti Memory's configuration is invalid: ${problems.join('; ')}.` };
  }
  const userValues = user.ok ? user.values : {};
  const ignored: IgnoredProjectKey[] = sourceFiles.refused.map(({ file, why }) => ({ file, key: '*', why }));
  if (user.ok) ignored.push(...(user.ignored ?? []).map((entry) => ({ file: userFile, ...entry })));
  if (projectFile !== undefined && project !== undefined) {
    if (project.ok) ignored.push(...(project.ignored ?? []).map((entry) => ({ file: projectFile, ...entry })));
    else ignored.push(...project.problems.map((why) => ({ file: projectFile, key: '*', why: why.replace(`${projectFile}: `, '') })));
  }
  const projectValues = project?.ok === true ? project.values : {};
  const trustedDigest = projectFile === undefined ? undefined : reads.trusted[projectFile];
  const projectTrusted = project?.ok === true && project.digest !== undefined && trustedDigest === project.digest;
  if (projectFile !== undefined) ignored.push(...userOnlyKeysOf(projectFile, projectValues));
  const layers: Array<[ConfigOrigin, ConfigValues]> = [
    ['user', userValues],
    ['project', withoutUserOnlyKeys(projectValues)],
    ['env', fromEnvironment.ok ? fromEnvironment.values : {}],
    ['flag', flags?.ok === true ? flags.values : {}],
  ];
  const merged: Record<string, unknown> = flatten(DEFAULT_CONFIG_SETTINGS as unknown as Record<string, unknown>);
  const origins: Record<string, ConfigOrigin> = Object.fromEntries(Object.keys(merged).map((key) => [key, 'default']));
  for (const [origin, values] of layers) {
    const { consent: _consent, userKey: _userKey, ...settingValues } = values;
    const flat = flatten({ ...settingValues, ...(values.scopes === undefined ? {} : { scopes: ingestScopesOf(values.scopes) }) });
    for (const [key, value] of Object.entries(flat)) {
      if (value === undefined) continue;
      let applied = value;
      if (origin === 'project' && projectFile !== undefined && NEVER_ON_FROM_PROJECT.includes(key) && value !== false) {
        // Trusted or not: mirroring every chat turn, or sending sessions to a chat model, is the user's own decision.
        ignored.push({ file: projectFile, key, why: 'a project file may only turn it off; turn it on in your own config.json (or the VS Code setting)' });
        continue;
      }
      if (origin === 'project' && projectFile !== undefined && !projectTrusted) {
        const lapsed = trustedDigest !== undefined ? 'the file changed since you trusted it; ' : '';
        const ignore = (ignoredKey: string, why: string): void => {
          ignored.push({ file: projectFile, key: ignoredKey, why: `${lapsed}${why}; ignored until you trust this file (\`graphiti-harness config trust ${projectFile}\`)` });
        };
        if (key === 'filter') {
          // Kind by kind: the stricter kinds apply, each wider one is named.
          const narrowed = narrowedFilter(value as TranscriptFilterOption, merged[key] as TranscriptFilterOption | undefined);
          for (const { kind, why } of narrowed.widened) ignore(`filter.${kind}`, why);
          if (narrowed.filter === undefined) continue;
          applied = narrowed.filter;
        } else {
          const why = wideningReason(key, comparable(key, value), comparable(key, merged[key]));
          if (why !== undefined) {
            ignore(key, why);
            continue;
          }
        }
      }
      merged[key] = applied;
      origins[key] = origin;
    }
  }
  const rawEndpoint = merged['endpoint'] as string | undefined;
  const endpoint = rawEndpoint === undefined || rawEndpoint.trim() === '' ? undefined : normaliseEndpoint(rawEndpoint);
  // The state folder as every tool finds it: absolute, a relative one taken where it was written.
  const stateDir = configuredStateDirectory(stateFolderSources(options, user));
  const settings = unflatten({ ...merged, endpoint, stateDir }) as unknown as ConfigSettings;
  const scopesSet = origins['scopes'] !== 'default';
  return {
    ok: true,
    config: {
      settings,
      origins: origins as Record<ConfigKey, ConfigOrigin>,
      files: { user: userFile, project: projectFile },
      projectTrusted,
      ...(project?.ok === true && project.digest !== undefined ? { projectDigest: project.digest } : {}),
      ignored,
      userKey: userValues.userKey,
      consent: userValues.consent,
      enabled: settings.enabled,
      endpoint: settings.endpoint,
      server: settings.server,
      scopes: scopesSet ? (settings.scopes === 'both' ? ['session', 'workspace'] : [settings.scopes]) : undefined,
      timeoutMs: origins['timeoutMs'] === 'default' ? undefined : settings.timeoutMs,
      recallTimeoutMs: settings.recall.timeoutMs,
      maxFacts: settings.recall.maxFacts,
      filter: settings.filter,
      briefBudget: settings.brief.budget,
      groupIdStrategy: settings.groupIdStrategy,
      stateDir: settings.stateDir,
    },
  };
}

/**
 * `{ recall: { maxFacts: 5 } }` → `{ 'recall.maxFacts': 5 }` (one level deep, as the settings are).
 * `filter` stays one value: its object form is a whole filter (its preset and modes), not keys.
 */
function flatten(values: Record<string, unknown>): Record<string, unknown> {
  const flat: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (key !== 'filter' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [child, childValue] of Object.entries(value)) flat[`${key}.${child}`] = childValue;
    } else {
      flat[key] = value;
    }
  }
  return flat;
}

function unflatten(flat: Record<string, unknown>): Record<string, unknown> {
  const nested: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(flat)) {
    const [head = key, child] = key.split('.');
    if (child === undefined) nested[head] = value;
    else nested[head] = { ...(nested[head] as object | undefined), [child]: value };
  }
  return nested;
}

/** Endpoints compare normalised (`http://h:8000/` is `http://h:8000`). */
function comparable(key: string, value: unknown): unknown {
  return key === 'endpoint' && typeof value === 'string' ? (normaliseEndpoint(value) ?? value) : value;
}

/** Each user-only key a project file holds, named (trusted or not, it is never applied). */
function userOnlyKeysOf(file: string, values: ConfigValues): IgnoredProjectKey[] {
  const keys = (['consent', 'userKey', 'stateDir'] as const).filter((key) => values[key] !== undefined);
  const delivery = DELIVERY_KEYS.filter((key) => values[key] !== undefined);
  return [
    ...keys.map((key) => ({ file, key, why: 'only the user config.json may set it' })),
    ...delivery.map((key) => ({ file, key, why: "a delivery setting: it changes what happens to every project's queued turns, so only the user config.json may set it" })),
  ];
}

/** Consent, the user key, the state folder and delivery settings are the user's, never a repository's. */
function withoutUserOnlyKeys(values: ConfigValues): ConfigValues {
  const { consent: _consent, userKey: _userKey, stateDir: _stateDir, maxAttempts: _maxAttempts, maxAgeHours: _maxAgeHours, maxQueueSize: _maxQueueSize, maxBatchSize: _maxBatchSize, ...rest } = values;
  return rest;
}

function environmentValues(env: Environment): ConfigFileRead {
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
  // `both` / `session` / `workspace`, or a comma-separated list as the file's list form.
  if (scopes !== undefined) raw['scopes'] = scopes.includes(',') || scopes === 'user' || scopes === 'team' ? scopes.split(',').map((scope) => scope.trim()) : scopes;
  const stateDir = text(CONFIG_ENVIRONMENT_VARIABLES.stateDir);
  if (stateDir !== undefined) raw['stateDir'] = stateDir;
  if (problems.length > 0) return { ok: false, problems };
  // Problems name the variable, not the key it sets.
  const names = Object.fromEntries(Object.entries(CONFIG_ENVIRONMENT_VARIABLES).map(([key, variable]) => [key, variable]));
  return checkConfigValues(raw, 'environment', names);
}

/** A repository's file may be a link within the repository, never one out of it (to `/dev/zero`, another user's file). */
function projectFileRead(projectFile: string): { readonly root: string } {
  return { root: path.dirname(projectFile) };
}
