// Mementos as memory-core's stores: a KeyValueStore per Memento, and the consent of this
// workspace in workspaceState (consent is per workspace, tied to the endpoint it was given for).
import type * as vscode from 'vscode';
import { isConsentCategory, type ConsentCategory, type ConsentRecord, type ConsentStore, type KeyValueStore } from '@graphiti-memory/memory-core';
import type { Clock } from '@graphiti-memory/memory-core';
import type { ConsentHistory } from '../consent/consent-history.js';

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
/** Set by Revoke Consent, cleared by a new consent: the status says "consent revoked", not "needs consent". */
export const CONSENT_REVOKED_KEY = 'graphitiMemory.consentRevoked';

export class MementoConsentStore implements ConsentStore, ConsentHistory {
  readonly #listeners = new Set<() => void>();
  /**
   * `categoriesInUse` gives the categories the settings switch on now: a record written before
   * consent had categories is migrated to them on its first read (the settings of the last window,
   * the best record of what the user agreed to), and kept so from then on.
   */
  constructor(
    private readonly workspaceState: vscode.Memento,
    private readonly clock: Pick<Clock, 'now'>,
    private readonly categoriesInUse: () => readonly ConsentCategory[] = () => ['memoryChat'],
  ) {}

  get(): ConsentRecord | undefined {
    const record = this.workspaceState.get<ConsentRecord>(CONSENT_KEY);
    if (record === undefined || typeof record.endpoint !== 'string') return undefined;
    if (Array.isArray(record.categories)) return { ...record, categories: record.categories.filter(isConsentCategory) };
    const migrated: ConsentRecord = { ...record, categories: withMemoryChat(this.categoriesInUse()) };
    void this.workspaceState.update(CONSENT_KEY, migrated);
    return migrated;
  }

  async grant(endpoint: string, categories: readonly ConsentCategory[] = this.categoriesInUse()): Promise<void> {
    const record: ConsentRecord = { endpoint, grantedAt: new Date(this.clock.now()).toISOString(), categories: withMemoryChat(categories) };
    await this.workspaceState.update(CONSENT_KEY, record);
    await this.workspaceState.update(CONSENT_REVOKED_KEY, undefined);
    this.#notify();
  }

  async revoke(): Promise<void> {
    const had = this.workspaceState.get(CONSENT_KEY) !== undefined;
    await this.workspaceState.update(CONSENT_KEY, undefined);
    if (had) await this.workspaceState.update(CONSENT_REVOKED_KEY, true);
    this.#notify();
  }

  revoked(): boolean {
    return this.workspaceState.get<boolean>(CONSENT_REVOKED_KEY) === true && this.get() === undefined;
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

/** Every consent covers the @memory chat; listed once, in the fixed category order. */
function withMemoryChat(categories: readonly ConsentCategory[]): ConsentCategory[] {
  return [...new Set<ConsentCategory>(['memoryChat', ...categories])];
}
