import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  Clock,
  ConsentStore,
  GlobalStore,
  InMemoryOutbox,
  IngestionStorage,
  Logger,
  type KeyValueStore,
  type LogFields,
} from '@graphiti-memory/memory-core';
import { Container } from 'inversify';
import { describe, expect, it } from 'vitest';
import { FileOutbox } from '../outbox/file-outbox.js';
import { temporaryDirectory } from '../../test-support/journal-fixtures.js';
import { createNodeStorageModule } from './node-storage-module.js';

const exists = (target: string): Promise<boolean> => fs.access(target).then(() => true, () => false);

describe('createNodeStorageModule', () => {
  it('binds ingestion storage that opens the outbox with its own ledger on first need, and the stores', async () => {
    const directory = await temporaryDirectory();
    const outboxDirectory = path.join(directory, 'outbox');
    const container = new Container();
    container.loadSync(
      createNodeStorageModule({
        outbox: { directory: outboxDirectory, commitIntervalMs: 5 },
        globalStoreFile: path.join(directory, 'global.json'),
        workspaceStoreFile: path.join(directory, 'workspace.json'),
      }),
    );
    const storage = container.get<IngestionStorage>(IngestionStorage);
    // Resolving the binding opens nothing: ingestion opens the storage when it needs it.
    expect(await exists(outboxDirectory)).toBe(false);
    expect(storage.current()).toBeUndefined();
    const store = await storage.open();
    expect(storage.current()).toBe(store);
    expect(store.outbox).toBeInstanceOf(FileOutbox);
    expect(store.ledger).toBe((store.outbox as FileOutbox).deliveryLedger);
    expect(await storage.open()).toBe(store);
    expect(await container.getAsync(FileOutbox)).toBe(store.outbox);
    // Resolved once: later synchronous gets see the same singletons.
    expect(container.get(FileOutbox)).toBe(store.outbox);
    const consent = await container.getAsync<ConsentStore>(ConsentStore);
    await consent.grant('http://localhost:8000');
    expect(consent.get()?.endpoint).toBe('http://localhost:8000');
    const global = await container.getAsync<KeyValueStore>(GlobalStore);
    expect(typeof global.get).toBe('function');
    await storage.close();
    expect((store.outbox as FileOutbox).stats().drainHeld).toBe(false);
  });

  it('binds no stores whose files are not given', async () => {
    const directory = await temporaryDirectory();
    const container = new Container();
    container.loadSync(createNodeStorageModule({ outbox: { directory } }));
    expect(container.isBound(GlobalStore)).toBe(false);
    expect(container.isBound(ConsentStore)).toBe(false);
    await (await container.getAsync(FileOutbox)).close();
  });

  it('falls back to in-memory storage with one content-free warning when asked to, and fails clearly otherwise', async () => {
    const directory = await temporaryDirectory();
    // A file where the outbox folder should be: the durable outbox cannot open.
    const blocked = path.join(directory, 'blocked');
    await fs.writeFile(blocked, 'not a folder');
    const warnings: { message: string; fields?: LogFields }[] = [];
    const logger: Logger = { debug() {}, info() {}, warn: (message, fields) => warnings.push({ message, ...(fields ? { fields } : {}) }), error() {} };

    const lenient = new Container();
    lenient.bind(Logger).toConstantValue(logger);
    lenient.bind(Clock).toConstantValue({ now: () => 0, sleep: async () => {} });
    lenient.loadSync(createNodeStorageModule({ outbox: { directory: blocked }, inMemoryFallback: true }));
    const store = await lenient.get<IngestionStorage>(IngestionStorage).open();
    expect(store.outbox).toBeInstanceOf(InMemoryOutbox);
    expect(warnings.map((warning) => warning.message)).toEqual(['durable outbox unavailable; queued messages will not survive a reload']);
    await expect(lenient.getAsync(FileOutbox)).rejects.toThrow(/in-memory storage/);

    const strict = new Container();
    strict.loadSync(createNodeStorageModule({ outbox: { directory: blocked } }));
    await expect(strict.get<IngestionStorage>(IngestionStorage).open()).rejects.toThrow();
  });
});
