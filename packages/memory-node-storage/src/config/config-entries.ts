// The effective configuration as people read it (`graphiti-harness config show`, the extension's
// Show Status): each value, where it came from, and the file or variable that set it.
import { CONFIG_ENVIRONMENT_VARIABLES, type ConfigKey, type ConfigOrigin, type ResolvedMemoryConfig } from './resolve-config.js';

export interface ConfigEntry {
  /** Dotted key, as in the config file (`recall.maxFacts`). */
  readonly key: ConfigKey;
  readonly value: unknown;
  readonly origin: ConfigOrigin;
  /** The file path (project, user), the variable (env), `command line` or `default`. */
  readonly source: string;
}

/** Every value of `configuration`, in the order of `settings`. */
export function configurationEntries(configuration: ResolvedMemoryConfig): ConfigEntry[] {
  return (Object.keys(configuration.origins) as ConfigKey[]).map((key) => {
    const origin = configuration.origins[key];
    return { key, value: valueAt(configuration, key), origin, source: sourceOf(configuration, key, origin) };
  });
}

/** One line per value: `recall.maxFacts = 5  (project: /repo/.graphiti-memory.json)`. */
export function configurationLines(configuration: ResolvedMemoryConfig): string[] {
  const entries = configurationEntries(configuration);
  const width = Math.max(...entries.map((entry) => entry.key.length));
  return entries.map((entry) => {
    const where = entry.origin === 'default' ? 'default' : `${entry.origin}: ${entry.source}`;
    return `${entry.key.padEnd(width)} = ${entry.value === undefined ? '(not set)' : JSON.stringify(entry.value)}  (${where})`;
  });
}

function valueAt(configuration: ResolvedMemoryConfig, key: ConfigKey): unknown {
  const [head = key, child] = key.split('.');
  const value = (configuration.settings as unknown as Record<string, unknown>)[head];
  return child === undefined ? value : (value as Record<string, unknown> | undefined)?.[child];
}

function sourceOf(configuration: ResolvedMemoryConfig, key: ConfigKey, origin: ConfigOrigin): string {
  switch (origin) {
    case 'user':
      return configuration.files.user;
    case 'project':
      return configuration.files.project ?? 'project file';
    case 'env':
      return (CONFIG_ENVIRONMENT_VARIABLES as Readonly<Record<string, string>>)[key] ?? 'environment';
    case 'flag':
      return 'command line';
    case 'default':
      return 'default';
  }
}

/** One line per project value not applied: `ignored enabled (/repo/.graphiti-memory.json): why`. */
export function ignoredLines(configuration: Pick<ResolvedMemoryConfig, 'ignored'>): string[] {
  return configuration.ignored.map((entry) => `ignored ${entry.key === '*' ? 'the whole file' : entry.key} (${entry.file}): ${entry.why}`);
}
