import path from 'node:path';
import { ConsentStore, DeliveryLedger, GlobalStore, Outbox, type KeyValueStore } from '@graphiti-memory/memory-core';
import { Container } from 'inversify';
import { describe, expect, it } from 'vitest';
import { FileOutbox } from '../outbox/file-outbox.js';
import { temporaryDirectory } from '../test-support/journal-fixtures.js';
import { createNodeStorageModule } from './node-storage-module.js';

describe('createNodeStorageModule', () => {
  it('binds the opened outbox as Outbox, its own ledger as DeliveryLedger, and the stores', async () => {
    const directory = await temporaryDirectory();
    const container = new Container();
    container.loadSync(
      createNodeStorageModule({
        outbox: { directory: path.join(directory, 'outbox'), commitIntervalMs: 5 },
        globalStoreFile: path.join(directory, 'global.json'),
        workspaceStoreFile: path.join(directory, 'workspace.json'),
      }),
    );
    const outbox = await container.getAsync<Outbox>(Outbox);
    expect(outbox).toBeInstanceOf(FileOutbox);
    expect(await container.getAsync(FileOutbox)).toBe(outbox);
    expect(await container.getAsync(DeliveryLedger)).toBe((outbox as FileOutbox).deliveryLedger);
    // Resolved once: later synchronous gets see the same singletons.
    expect(container.get(Outbox)).toBe(outbox);
    const consent = await container.getAsync<ConsentStore>(ConsentStore);
    await consent.grant('http://localhost:8000');
    expect(consent.get()?.endpoint).toBe('http://localhost:8000');
    const global = await container.getAsync<KeyValueStore>(GlobalStore);
    expect(typeof global.get).toBe('function');
    await outbox.close();
  });

  it('binds no stores whose files are not given', async () => {
    const directory = await temporaryDirectory();
    const container = new Container();
    container.loadSync(createNodeStorageModule({ outbox: { directory } }));
    expect(container.isBound(GlobalStore)).toBe(false);
    expect(container.isBound(ConsentStore)).toBe(false);
    await (await container.getAsync<Outbox>(Outbox)).close();
  });
});
