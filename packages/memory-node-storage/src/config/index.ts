/**
 * Configuration shared by every tool on the machine: the user-level `config.json` (in the user's
 * config folder), the project's `.graphiti-memory.json`, the API key file (mode 0600) and the user
 * scope's key. `resolveMemoryConfig` merges flags > env > project > user > defaults and records
 * where each value came from; `memorySettingsFor` turns the result into memory-core's settings.
 */
export {
  apiKeyFilePath,
  CONFIG_DIRECTORY_VARIABLE,
  findProjectConfig,
  lookupProjectConfig,
  PROJECT_CONFIG_FILE_NAME,
  type ProjectConfigLookup,
  type RefusedProjectFile,
  userConfigDirectory, userConfigPath, type Environment } from './config-paths.js';
export { API_KEY_VARIABLE, readApiKey, writeApiKeyFile, type ApiKeyRead } from './api-key.js';
export {
  checkConfigValues,
  checkProjectConfigValues,
  CONFIG_KEY_TREE,
  CONFIG_SCOPES,
  ingestScopesOf,
  readConfigFile,
  readConfigFileSync,
  SERVER_KINDS,
  updateConfigFile,
  type ConfigFileKind,
  type ConfigFileRead,
  type IgnoredFileKey,
  jsonErrorPlace,
  type ConfigScope,
  type ConfigValues,
  type HookConsent,
  type ServerKind,
} from './config-file.js';
export { configurationEntries, configurationLines, ignoredLines, type ConfigEntry } from './config-entries.js';
export { watchConfigFiles, type ConfigFilesWatch } from './config-watcher.js';
export { memorySettingsFor, type MemorySettingsOverrides } from './memory-settings-for.js';
export {
  CONFIG_ENVIRONMENT_VARIABLES,
  DEFAULT_BRIEF_BUDGET,
  DEFAULT_CONFIG_SETTINGS,
  DEFAULT_MAX_FACTS,
  DELIVERY_KEYS,
  DEFAULT_RECALL_TIMEOUT_MS,
  resolveMemoryConfig,
  resolveMemoryConfigSync,
  type IgnoredProjectKey,
  type ConfigKey,
  type ConfigOrigin,
  type ConfigResolution,
  type ConfigSettings,
  type ResolveConfigOptions,
  type ResolvedMemoryConfig,
} from './resolve-config.js';
export { NARROWING_RULES, wideningReason } from './project-narrowing.js';
export { readTrustedProjectFiles, readTrustedProjectFilesSync, trustProjectFile, untrustProjectFile, type TrustedProjectFiles } from './project-trust.js';
export { ensureUserKey, readUserKey, setUserKey } from './user-key.js';
