// The API key (for a proxy in front of Graphiti) lives in SecretStorage only, never in settings.
// It is read once and cached, because the Graphiti connection is resolved synchronously.
import type * as vscode from 'vscode';

export const API_KEY_SECRET = 'graphitiMemory.apiKey';

export interface ApiKeyStore {
  /** The cached key; `undefined` until `load()` finished or when none is stored. */
  current(): string | undefined;
  load(): Promise<string | undefined>;
  set(key: string): Promise<void>;
  clear(): Promise<void>;
  onDidChange(listener: () => void): { dispose(): void };
}
export const ApiKeyStore = Symbol.for('graphiti-memory.vscode.ApiKeyStore');

export class SecretApiKeyStore implements ApiKeyStore, vscode.Disposable {
  #key: string | undefined;
  readonly #listeners = new Set<() => void>();
  readonly #subscription: vscode.Disposable;

  constructor(private readonly secrets: vscode.SecretStorage) {
    // Another window may change the key: follow it.
    this.#subscription = secrets.onDidChange((event) => {
      if (event.key === API_KEY_SECRET) void this.load();
    });
  }

  current(): string | undefined {
    return this.#key;
  }

  async load(): Promise<string | undefined> {
    const key = await this.secrets.get(API_KEY_SECRET);
    const changed = key !== this.#key;
    this.#key = key === '' ? undefined : key;
    if (changed) this.#notify();
    return this.#key;
  }

  async set(key: string): Promise<void> {
    await this.secrets.store(API_KEY_SECRET, key);
    await this.load();
  }

  async clear(): Promise<void> {
    await this.secrets.delete(API_KEY_SECRET);
    await this.load();
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.#listeners.add(listener);
    return { dispose: () => this.#listeners.delete(listener) };
  }

  dispose(): void {
    this.#subscription.dispose();
    this.#listeners.clear();
  }

  #notify(): void {
    for (const listener of [...this.#listeners]) listener();
  }
}
