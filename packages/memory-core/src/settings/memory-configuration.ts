// The settings as the rest of memory-core sees them: always a complete, valid `MemorySettings`
// (the defaults, disabled, when the host's values are bad) plus the problems to show the user.
import { inject, injectable } from 'inversify';
import { SettingsSource } from '../ports.js';
import { parseMemorySettings, type MemorySettings, type MemorySettingsParseResult } from './memory-settings.js';

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
    this.parsed = parseMemorySettings(source.read());
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
    this.parsed = parseMemorySettings(this.source.read());
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
