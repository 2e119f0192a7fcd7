// The settings as the rest of memory-core sees them: always a complete, valid `MemorySettings`
// (the defaults, disabled, when the host's values are bad) plus the problems to show the user.
import { inject, injectable } from 'inversify';
import { SettingsSource } from '../ports.js';
import { DEFAULT_SETTINGS, parseMemorySettings, type MemorySettings, type MemorySettingsParseResult } from './memory-settings.js';

/**
 * A `SettingsSource` whose own inputs can be invalid (the extension's config files, with a
 * misspelt key): its problems, read after each `read()`, keep memory off as a bad setting does.
 */
export interface CheckedSettingsSource extends SettingsSource {
  problems(): readonly string[];
}

function parseSource(source: SettingsSource): MemorySettingsParseResult {
  const parsed = parseMemorySettings(source.read());
  const checked = source as Partial<CheckedSettingsSource>;
  const own = typeof checked.problems === 'function' ? checked.problems() : [];
  if (own.length === 0) return parsed;
  return { ok: false, settings: DEFAULT_SETTINGS, problems: [...own, ...(parsed.ok ? [] : parsed.problems)] };
}

export interface MemoryConfiguration {
  /** The settings in force; `DEFAULT_SETTINGS` (disabled) while `problems()` is not empty. */
  current(): MemorySettings;
  /** Readable problems of the host's settings, each naming the setting; empty when valid. */
  problems(): readonly string[];
  /** Called after the settings changed (and were parsed again). */
  onDidChange(listener: () => void): { dispose(): void };
}
export const MemoryConfiguration = Symbol.for('graphiti-memory.MemoryConfiguration');

/** Parses the `SettingsSource` once, and again whenever it reports a change. */
@injectable()
export class ConfiguredMemorySettings implements MemoryConfiguration {
  private parsed: MemorySettingsParseResult;
  private readonly listeners = new Set<() => void>();
  private readonly subscription: { dispose(): void };

  constructor(@inject(SettingsSource) private readonly source: SettingsSource) {
    this.parsed = parseSource(source);
    this.subscription = source.onDidChange(() => this.reload());
  }

  current(): MemorySettings {
    return this.parsed.settings;
  }

  problems(): readonly string[] {
    return this.parsed.ok ? [] : this.parsed.problems;
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Parses the source again and notifies listeners. */
  reload(): void {
    this.parsed = parseSource(this.source);
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {
        // One failing listener must not keep the others from seeing the change.
      }
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.listeners.clear();
  }
}
