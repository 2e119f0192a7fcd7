// Settings that never change while a command or a hook event runs.
import type { SettingsSource } from '@graphiti-memory/memory-core';

export class StaticSettingsSource implements SettingsSource {
  constructor(private readonly settings: object) {}

  read(): unknown {
    return this.settings;
  }

  onDidChange(): { dispose(): void } {
    return { dispose() {} };
  }
}
