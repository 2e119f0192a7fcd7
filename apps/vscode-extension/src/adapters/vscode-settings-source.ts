// memory-core parses the settings; this adapter gives it every `graphitiMemory.*` key (as flat
// dotted keys, which `parseMemorySettings` accepts) from two layers, and reports changes:
//   1. what the user set in VS Code (user, workspace or folder settings: `inspect()`'s values) wins;
//   2. any key not set there comes from the configuration every tool reads — GRAPHITI_MEMORY_*
//      variables > the project's `.graphiti-memory.json` > the user's `config.json`;
//   3. else VS Code's default (the manifest's, the same as memory-core's).
// A project file is a repository's word: the trust rule that lets it only narrow what is sent
// (fewer scopes, lower budgets; never on, another endpoint or more scopes) comes with its own
// issue. Until then consent, asked per endpoint, still guards where anything goes.
// A broken config file (a misspelt key) keeps memory off with the file and key named, as a bad
// VS Code setting does: `problems()` is read by memory-core's `ConfiguredMemorySettings`.
import path from 'node:path';
import { injectable } from 'inversify';
import * as vscode from 'vscode';
import { SETTINGS_SECTION, type CheckedSettingsSource } from '@graphiti-memory/memory-core';
import {
  configurationEntries,
  findProjectConfig,
  PROJECT_CONFIG_FILE_NAME,
  resolveMemoryConfigSync,
  userConfigPath,
  watchConfigFiles,
  type ConfigEntry,
  type ConfigKey,
  type ConfigOrigin,
  type IgnoredProjectKey,
} from '@graphiti-memory/memory-node-storage';

/** Every setting the manifest declares under `graphitiMemory.` (package.json is the source of truth). */
export const SETTING_KEYS = [
  'enabled',
  'endpoint',
  'serverKind',
  'timeoutMs',
  'maxBatchSize',
  'maxQueueSize',
  'maxAttempts',
  'maxAgeHours',
  'maxMessageChars',
  'scopes',
  'groupIdStrategy',
  'includeGitMetadata',
  'includeSystemMessages',
  'autoPromote.enabled',
  'autoPromote.review',
  'recall.enabled',
  'recall.timeoutMs',
  'recall.maxFacts',
  'recall.scopes',
  'recall.stale',
  'capture.vscodeChat',
  'capture.claudeCode',
  'capture.backfillTurns',
  'team.consent',
  'team.displayName',
  'capture.granularity',
  'capture.idleMinutes',
  'capture.digestTurns',
  'capture.digestWriter',
  'capture.digestModel',
  'loops.expireDays',
  'loops.proposeWithModel',
  'filter',
  'mirror.enabled',
] as const;

/**
 * Settings a workspace or folder setting may turn off but never on: only the user's own settings
 * (or config.json) turn them on, as a project file cannot (memory-node-storage's NEVER_ON_FROM_PROJECT).
 */
const USER_ONLY_ON: ReadonlySet<SettingKey> = new Set(['mirror.enabled', 'loops.proposeWithModel']);

function explicitValue(key: SettingKey, inspected: { readonly globalValue?: unknown; readonly workspaceValue?: unknown; readonly workspaceFolderValue?: unknown } | undefined): unknown {
  if (!USER_ONLY_ON.has(key)) return inspected?.workspaceFolderValue ?? inspected?.workspaceValue ?? inspected?.globalValue;
  return inspected?.workspaceFolderValue === false || inspected?.workspaceValue === false ? false : inspected?.globalValue;
}
export type SettingKey = (typeof SETTING_KEYS)[number];

/** The config file's name of a VS Code setting: the same, but for `serverKind` (`server` in files). */
function configKeyOf(key: SettingKey): ConfigKey {
  return key === 'serverKind' ? 'server' : key;
}

/** Where a value in force came from: VS Code, one of the shared configuration's layers, or the default. */
export type SettingOrigin = 'vscode' | Exclude<ConfigOrigin, 'flag'>;

export interface EffectiveSetting {
  readonly key: SettingKey;
  readonly value: unknown;
  readonly origin: SettingOrigin;
  /** `VS Code settings`, the file path, the variable, or `default`. */
  readonly source: string;
}

/** The settings in force and where each came from, for Show Status. */
export interface EffectiveSettings {
  readonly settings: readonly EffectiveSetting[];
  readonly files: { readonly user: string; readonly project: string | undefined };
  /** Problems of the config files or variables (memory stays off until they are fixed). */
  readonly problems: readonly string[];
  /** What of the project file was not applied (it is not trusted and would widen what is sent), and why. */
  readonly ignored: readonly IgnoredProjectKey[];
  /** The sha256 of the project file as this read saw it: what "Trust This File" trusts. */
  readonly projectDigest?: string;
}

@injectable()
export class VsCodeSettingsSource implements CheckedSettingsSource {
  #effective: EffectiveSettings | undefined;

  read(): unknown {
    const configuration = vscode.workspace.getConfiguration(SETTINGS_SECTION);
    const env = process.env;
    const resolution = resolveMemoryConfigSync({ workspaceFolder: workspaceFolder(), env });
    const shared = new Map<ConfigKey, ConfigEntry>(resolution.ok ? configurationEntries(resolution.config).map((entry) => [entry.key, entry]) : []);
    const values: Record<string, unknown> = {};
    const settings: EffectiveSetting[] = [];
    for (const key of SETTING_KEYS) {
      const inspected = configuration.inspect(key);
      const explicit = explicitValue(key, inspected);
      const configKey = configKeyOf(key);
      const entry = shared.get(configKey);
      let setting: EffectiveSetting;
      if (explicit !== undefined) {
        setting = { key, value: explicit, origin: 'vscode', source: 'VS Code settings' };
      } else if (entry !== undefined && entry.origin !== 'default' && entry.origin !== 'flag') {
        setting = { key, value: entry.value, origin: entry.origin, source: entry.source };
      } else {
        setting = { key, value: configuration.get(key), origin: 'default', source: 'default' };
      }
      values[key] = setting.value;
      settings.push(setting);
    }
    this.#effective = {
      settings,
      files: resolution.ok ? resolution.config.files : { user: userConfigPath(env), project: undefined },
      problems: resolution.ok ? [] : resolution.problems,
      ignored: resolution.ok ? resolution.config.ignored : [],
      ...(resolution.ok && resolution.config.projectDigest !== undefined ? { projectDigest: resolution.config.projectDigest } : {}),
    };
    return values;
  }

  problems(): readonly string[] {
    return this.#effective?.problems ?? [];
  }

  /** The settings in force as of the last `read()`, each with its origin. */
  effective(): EffectiveSettings {
    if (this.#effective === undefined) this.read();
    return this.#effective as EffectiveSettings;
  }

  onDidChange(listener: () => void): { dispose(): void } {
    const subscriptions: { dispose(): void }[] = [
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(SETTINGS_SECTION)) listener();
      }),
    ];
    // The files every tool reads: the user's, and the project's at the workspace root (or above).
    let files = watchConfigFiles(watchedFiles(), listener);
    subscriptions.push(
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        files.dispose();
        files = watchConfigFiles(watchedFiles(), listener);
        listener();
      }),
      { dispose: () => files.dispose() },
    );
    return { dispose: () => subscriptions.forEach((subscription) => subscription.dispose()) };
  }
}

function workspaceFolder(): string | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  return folder?.scheme === 'file' ? folder.fsPath : undefined;
}

function watchedFiles(): string[] {
  const env = process.env;
  const folder = workspaceFolder();
  const files = [userConfigPath(env)];
  if (folder !== undefined) {
    files.push(path.join(folder, PROJECT_CONFIG_FILE_NAME));
    const found = findProjectConfig(folder);
    if (found !== undefined && !files.includes(found)) files.push(found);
  }
  return files;
}

/** Changes a setting where the user most likely means it: the workspace when one is open. */
export async function updateSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration(SETTINGS_SECTION).update(key, value, settingTarget(key));
}

/**
 * Where a setting the extension changes for the user is written: the user settings, never the
 * repository's `.vscode/settings.json` — unless the workspace (or a folder) already sets that key,
 * which is the user choosing the workspace (and a user value would not win over it anyway).
 */
export function settingTarget(key: string): vscode.ConfigurationTarget {
  const values = vscode.workspace.getConfiguration(SETTINGS_SECTION).inspect(key);
  if (values?.workspaceFolderValue !== undefined || values?.workspaceValue !== undefined) return vscode.ConfigurationTarget.Workspace;
  return vscode.ConfigurationTarget.Global;
}
