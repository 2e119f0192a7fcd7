// An `ExtensionContext` for tests: in-memory Mementos and SecretStorage, and real folders for the
// storage URIs (the durable outbox writes files), laid out as VS Code lays them out so the chat
// sessions folder sits where capture expects it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type * as vscode from 'vscode';
import { EventEmitter, ExtensionMode, Uri } from './basics.js';

/** The extension's package.json, as VS Code hands it over in `context.extension.packageJSON`. */
const MANIFEST: unknown = JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));

export class MementoDouble implements vscode.Memento {
  readonly #values = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.#values.keys()];
  }
  get<T>(key: string, defaultValue?: T): T | undefined {
    // Mementos store JSON: a copy, like VS Code's, so callers cannot mutate stored state.
    return this.#values.has(key) ? (structuredClone(this.#values.get(key)) as T) : defaultValue;
  }
  update(key: string, value: unknown): Thenable<void> {
    if (value === undefined) this.#values.delete(key);
    else this.#values.set(key, structuredClone(value));
    return Promise.resolve();
  }
  setKeysForSync(): void {}
}

export class SecretStorageDouble implements vscode.SecretStorage {
  readonly #values = new Map<string, string>();
  readonly #changed = new EventEmitter<vscode.SecretStorageChangeEvent>();
  readonly onDidChange = this.#changed.event;
  get(key: string): Thenable<string | undefined> {
    return Promise.resolve(this.#values.get(key));
  }
  store(key: string, value: string): Thenable<void> {
    this.#values.set(key, value);
    this.#changed.fire({ key });
    return Promise.resolve();
  }
  delete(key: string): Thenable<void> {
    this.#values.delete(key);
    this.#changed.fire({ key });
    return Promise.resolve();
  }
  /** Every stored key (test helper). */
  keys(): string[] {
    return [...this.#values.keys()];
  }
}

export const EXTENSION_ID = 'graphiti-memory.graphiti-memory';

export interface ExtensionContextDouble {
  readonly context: vscode.ExtensionContext;
  readonly workspaceState: MementoDouble;
  readonly globalState: MementoDouble;
  readonly secrets: SecretStorageDouble;
  /** `<root>/User/workspaceStorage/<id>`: the parent of `storageUri`, holding `chatSessions/`. */
  readonly workspaceStorageFolder: string;
  readonly globalStorageFolder: string;
  readonly root: string;
  /** Disposes every subscription and removes the folders. */
  dispose(): Promise<void>;
}

/** A fresh context with its own temporary user-data folder. */
export function createExtensionContext(options: { workspaceId?: string } = {}): ExtensionContextDouble {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'graphiti-memory-extension-'));
  const workspaceStorageFolder = path.join(root, 'User', 'workspaceStorage', options.workspaceId ?? 'workspace-1');
  const storageFolder = path.join(workspaceStorageFolder, EXTENSION_ID);
  const globalStorageFolder = path.join(root, 'User', 'globalStorage', EXTENSION_ID);
  const logFolder = path.join(root, 'logs', EXTENSION_ID);
  for (const folder of [storageFolder, globalStorageFolder, logFolder]) fs.mkdirSync(folder, { recursive: true });
  const workspaceState = new MementoDouble();
  const globalState = new MementoDouble();
  const secrets = new SecretStorageDouble();
  const subscriptions: { dispose(): unknown }[] = [];
  const extensionUri = Uri.file(path.resolve(import.meta.dirname, '../../..'));
  const context = {
    subscriptions,
    workspaceState,
    globalState,
    secrets,
    extensionUri,
    extensionPath: extensionUri.fsPath,
    storageUri: Uri.file(storageFolder),
    globalStorageUri: Uri.file(globalStorageFolder),
    logUri: Uri.file(logFolder),
    extensionMode: ExtensionMode.Test,
    extension: { id: EXTENSION_ID, extensionUri, packageJSON: MANIFEST, isActive: true },
    asAbsolutePath: (relative: string) => path.join(extensionUri.fsPath, relative),
  } as unknown as vscode.ExtensionContext;
  return {
    context,
    workspaceState,
    globalState,
    secrets,
    workspaceStorageFolder,
    globalStorageFolder,
    root,
    async dispose() {
      for (const subscription of subscriptions.splice(0).reverse()) await subscription.dispose();
      // A write started before disposal may still land in a folder being removed: retry.
      fs.rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    },
  };
}
