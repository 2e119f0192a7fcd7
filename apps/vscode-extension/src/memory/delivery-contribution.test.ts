import fs from 'node:fs';
import path from 'node:path';
import { ConsentStore, normaliseEndpoint } from '@graphiti-memory/memory-core';
import { stateLayout } from '@graphiti-memory/memory-node-storage';
import { describe, expect, it } from 'vitest';
import { activateExtension, waitFor, type Harness } from '../test-support/extension-harness.js';
import { answerMessages } from '../test-support/vscode-double.js';


/**
 * Delivery's first pass opens the durable outbox, which creates this folder: the sign it started.
 * It is the endpoint's outbox in the state folder every tool shares, not the extension's storage.
 */
const outboxFolder = (opened: Harness): string =>
  stateLayout(process.env['GRAPHITI_MEMORY_STATE_DIR'] ?? '', '', normaliseEndpoint(opened.emulator.url) ?? '').outboxDirectory;

describe('delivery', () => {
  it('starts when consent opens the gate, without anyone reading the status', async () => {
    answerMessages(undefined);
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true } });
    const consent = harness.container.get<ConsentStore>(ConsentStore);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fs.existsSync(outboxFolder(harness))).toBe(false);
    await consent.grant(harness.emulator.url);
    await waitFor(() => fs.existsSync(outboxFolder(harness!)), 5000, 'delivery to open the outbox');
  });

  it('starts at activation when memory is already on', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true });
    await waitFor(() => fs.existsSync(outboxFolder(harness!)), 5000, 'delivery to open the outbox');
    expect(fs.existsSync(path.join(harness.context.globalStorageFolder, 'outbox'))).toBe(false);
  });

  it('moves the outbox an earlier version kept in global storage into the shared state folder', async () => {
    answerMessages(undefined);
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true } });
    const old = path.join(harness.context.globalStorageFolder, 'outbox');
    const journal = 'outbox-old-000000000000.journal';
    fs.mkdirSync(old, { recursive: true });
    fs.writeFileSync(path.join(old, journal), '');
    await harness.container.get<ConsentStore>(ConsentStore).grant(harness.emulator.url);
    await waitFor(() => fs.existsSync(outboxFolder(harness)), 5000, 'delivery to open the outbox');
    expect(fs.existsSync(path.join(old, journal))).toBe(false);
  });
});
