// The whole pipeline as an app composes it: createMemoryModule() + in-memory storage, against the
// emulator over HTTP: a turn is enqueued, confirmed through its episodes, and recalled. Run once
// against each face of Graphiti (REST service, MCP server) through createGraphitiClient.
import { createGraphitiClient, type GraphitiApi } from '@graphiti-memory/graphiti-client';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { Container } from 'inversify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SystemClock } from './clock/system-clock.js';
import { IngestionOptions } from './ingestion/index.js';
import { Ingestion } from './ingestion/ingestion.js';
import { createInMemoryStorageModule, createMemoryModule } from './memory-module.js';
import { RecallService } from './recall/index.js';
import { bindFakeHostPorts } from '../test-support/fake-host-ports.js';

let emulator: RunningEmulator;
let client: GraphitiApi;

async function compose(consentFor: string): Promise<Container> {
  const container = new Container();
  bindFakeHostPorts(container, {
    settings: { enabled: true, endpoint: emulator.url, recall: { enabled: true }, capture: { granularity: 'turn' } },
    consentFor,
    connection: { current: () => client },
    clock: new SystemClock(),
  });
  container.bind(IngestionOptions).toConstantValue({ pollIntervalMs: 20, maxPollIntervalMs: 100 });
  await container.load(createMemoryModule(), createInMemoryStorageModule());
  return container;
}

const turn = {
  id: 'turn-1',
  sessionId: 'chat-1',
  user: { text: 'We deploy the billing API with Fly.io.', timestamp: '2026-11-23T10:00:00Z' },
  assistant: { text: 'Understood, Fly.io it is.', timestamp: '2026-11-23T10:00:02Z' },
};

describe.each(['rest', 'mcp'] as const)('createMemoryModule (%s face)', (face) => {
  beforeEach(async () => {
    emulator = await startEmulator({ processingDelayMs: 2, face });
    client = createGraphitiClient({ baseUrl: emulator.url, kind: 'auto' });
  });
  afterEach(async () => {
    await client.close();
    await emulator.close();
  });

  it('composes a pipeline that stores a turn, confirms it and recalls it', async () => {
    const container = await compose(emulator.url);
    const ingestion = container.get<Ingestion>(Ingestion);
    ingestion.start();
    ingestion.enqueue(turn);
    const confirmation = await ingestion.waitForConfirmation({ timeoutMs: 15_000 });
    expect(confirmation.pending).toBe(0);
    const names = emulator.state.episodes().map((episode) => episode.name);
    expect(names.filter((name) => name === 'graphiti-memory.turn.turn-1.user')).toHaveLength(2); // session + workspace
    expect(names.filter((name) => name === 'graphiti-memory.turn.turn-1.assistant')).toHaveLength(2);
    const recall = await container.get<RecallService>(RecallService).recall('How do we deploy the billing API?', { sessionId: 'chat-2' });
    expect(recall.timedOut).toBe(false);
    expect(recall.facts.map((fact) => fact.fact).join('\n')).toContain('Fly.io');
    expect(recall.facts.every((fact) => fact.scope === 'workspace')).toBe(true);
    expect(await client.serverFace()).toMatchObject({ kind: face });
    await ingestion.dispose();
  });

  it('sends nothing when consent was given for another endpoint', async () => {
    const container = await compose('http://elsewhere.example:8000');
    const ingestion = container.get<Ingestion>(Ingestion);
    ingestion.start();
    ingestion.enqueue(turn);
    await container.get<RecallService>(RecallService).recall('How do we deploy?', { sessionId: 'chat-1' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await ingestion.drain();
    expect(emulator.requests).toEqual([]);
    await ingestion.dispose();
  });
});
