// Mementos as memory-core's stores: a KeyValueStore per Memento, and the consent of this
// workspace in workspaceState (consent is per workspace, tied to the endpoint it was given for).
import type * as vscode from 'vscode';
import type { ConsentRecord, ConsentStore, KeyValueStore } from '@graphiti-memory/memory-core';
import type { Clock } from '@graphiti-memory/memory-core';

const KEY_PREFIX = 'graphitiMemory.';

export class MementoKeyValueStore implements KeyValueStore {
  constructor(private readonly memento: vscode.Memento) {}
  get<T>(key: string): T | undefined {
    return this.memento.get<T>(KEY_PREFIX + key);
  }
  async set(key: string, value: unknown): Promise<void> {
    await this.memento.update(KEY_PREFIX + key, value);
  }
  async delete(key: string): Promise<void> {
    await this.memento.update(KEY_PREFIX + key, undefined);
  }
}

export const CONSENT_KEY = 'graphitiMemory.consent';

export class MementoConsentStore implements ConsentStore {
  readonly #listeners = new Set<() => void>();
  constructor(
    private readonly workspaceState: vscode.Memento,
    private readonly clock: Pick<Clock, 'now'>,
  ) {}

  get(): ConsentRecord | undefined {
    const record = this.workspaceState.get<ConsentRecord>(CONSENT_KEY);
    return record !== undefined && typeof record.endpoint === 'string' ? record : undefined;
  }

  async grant(endpoint: string): Promise<void> {
    const record: ConsentRecord = { endpoint, grantedAt: new Date(this.clock.now()).toISOString() };
    await this.workspaceState.update(CONSENT_KEY, record);
    this.#notify();
  }

  async revoke(): Promise<void> {
    await this.workspaceState.update(CONSENT_KEY, undefined);
    this.#notify();
  }

  /** Called after consent was granted or revoked (the status bar and gate-driven features follow it). */
  onDidChange(listener: () => void): { dispose(): void } {
    this.#listeners.add(listener);
    return { dispose: () => this.#listeners.delete(listener) };
  }

  #notify(): void {
    for (const listener of [...this.#listeners]) listener();
  }
}
