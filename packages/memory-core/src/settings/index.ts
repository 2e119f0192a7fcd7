/**
 * Settings: one zod schema (`memorySettingsSchema`) for every `graphitiMemory.*` setting, with
 * defaults (everything off) and bounds. `parseMemorySettings(raw)` accepts nested objects or flat
 * dotted keys and never half-applies a bad value: problems yield `DEFAULT_SETTINGS` (disabled) plus
 * one readable line per problem naming the setting. `ConfiguredMemorySettings` is the
 * `MemoryConfiguration` over a `SettingsSource`.
 */
export { DEFAULT_ENDPOINT, endpointProblem, normaliseEndpoint } from './endpoint.js';
export { ConfiguredMemorySettings, MemoryConfiguration, type CheckedSettingsSource } from './memory-configuration.js';
export {
  describeDirectiveHandling,
  directiveHandling,
  type DirectiveHandling,
  CAPTURE_GRANULARITIES,
  DEFAULT_SETTINGS,
  GROUP_ID_STRATEGIES,
  INGEST_SCOPE_SETTINGS,
  MEMORY_SCOPES,
  memorySettingsSchema,
  nestSettings,
  parseMemorySettings,
  RECALL_SCOPE_SETTINGS,
  SETTING_BOUNDS,
  SERVER_KIND_SETTINGS,
  SETTINGS_SECTION,
  TEAM_AUDIENCE,
  TEAM_DISPLAY_NAME_MAX_CHARS,
  type CaptureGranularity,
  type GroupIdStrategy,
  type IngestScopeSetting,
  type MemorySettings,
  type MemorySettingsParseResult,
  type RecallScopeSetting,
  type RecallScopesSetting,
  type ServerKindSetting,
} from './memory-settings.js';
