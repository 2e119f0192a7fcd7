import { ConsentStore } from '@graphiti-memory/memory-core';
import { afterEach, describe, expect, it } from 'vitest';
import { LazyIngestion, type Lazy } from '../composition/lazy.js';
import { activateExtension, type Harness } from '../test-support/extension-harness.js';
import { answerMessages } from '../test-support/vscode-double.js';
import type { MemoryIngestion } from './memory-services.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

describe('delivery', () => {
  it('starts when consent opens the gate, without anyone reading the status', async () => {
    answerMessages(undefined);
    harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true } });
    const ingestion = harness.container.get<Lazy<MemoryIngestion>>(LazyIngestion);
    expect(ingestion.peek()).toBeUndefined();
    await harness.container.get<ConsentStore>(ConsentStore).grant(harness.emulator.url);
    expect(ingestion.peek()).toBeDefined();
  });

  it('starts at activation when memory is already on', async () => {
    harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true });
    expect(harness.container.get<Lazy<MemoryIngestion>>(LazyIngestion).peek()).toBeDefined();
  });
});
