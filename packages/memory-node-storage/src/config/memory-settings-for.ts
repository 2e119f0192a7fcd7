// Configuration becomes memory-core's settings in this one function, for every tool (the harness,
// the agent hooks, the extension's runtime): so `groupIdStrategy`, `includeGitMetadata`,
// `recall.*` and the rest mean the same wherever memory is opened.
import { DEFAULT_TRANSCRIPT_FILTER, type MemorySettings } from '@graphiti-memory/memory-core';
import type { ResolvedMemoryConfig } from './resolve-config.js';

/** What a tool sets itself, over the configuration: a nested object's keys are merged one by one. */
export type MemorySettingsOverrides = {
  readonly [K in keyof MemorySettings]?: MemorySettings[K] extends object ? Partial<MemorySettings[K]> : MemorySettings[K];
};

/**
 * memory-core's raw settings (what a `SettingsSource.read()` returns, parsed by
 * `parseMemorySettings`) for a resolved configuration, with `overrides` on top: the few values a
 * tool decides itself, e.g. `{ enabled: true, maxQueueSize: 100_000, timeoutMs }` for a command
 * the user ran on purpose. No endpoint configured becomes `''` (memory-core's "not configured").
 *
 * @example
 * const source = new StaticSettingsSource(memorySettingsFor(configuration, { enabled: true, endpoint }));
 */
export function memorySettingsFor(configuration: Pick<ResolvedMemoryConfig, 'settings'>, overrides: MemorySettingsOverrides = {}): MemorySettings {
  const { settings } = configuration;
  const base: MemorySettings = {
    enabled: settings.enabled,
    endpoint: settings.endpoint ?? '',
    serverKind: settings.server,
    timeoutMs: settings.timeoutMs,
    maxBatchSize: settings.maxBatchSize,
    maxQueueSize: settings.maxQueueSize,
    maxMessageChars: settings.maxMessageChars,
    maxAttempts: settings.maxAttempts,
    maxAgeHours: settings.maxAgeHours,
    scopes: settings.scopes,
    groupIdStrategy: settings.groupIdStrategy,
    includeGitMetadata: settings.includeGitMetadata,
    includeSystemMessages: settings.includeSystemMessages,
    autoPromote: { ...settings.autoPromote },
    recall: { ...settings.recall },
    team: { ...settings.team },
    capture: { ...settings.capture },
    loops: { ...settings.loops },
    filter: settings.filter ?? DEFAULT_TRANSCRIPT_FILTER,
    mirror: { ...settings.mirror },
  };
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    const current = result[key];
    result[key] = value !== null && typeof value === 'object' && current !== null && typeof current === 'object' ? { ...current, ...value } : value;
  }
  return result as unknown as MemorySettings;
}
