import fs from 'node:fs';
import path from 'node:path';
import { ConsentStore } from '@graphiti-memory/memory-core';
import { describe, expect, it } from 'vitest';
import { activateExtension, waitFor, type Harness } from '../test-support/extension-harness.js';
import { answerMessages } from '../test-support/vscode-double.js';


/** Delivery's first pass opens the durable outbox, which creates this folder: the sign it started. */
const outboxFolder = (opened: Harness): string => path.join(opened.context.globalStorageFolder, 'outbox');

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
  });
});
