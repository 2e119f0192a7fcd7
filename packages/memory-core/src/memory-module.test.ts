// Every policy service resolves through inversify from its token alone: proves each constructor
// parameter carries its `@inject(Token)` (bundlers emit no decorator metadata to fall back on).
import { Container } from 'inversify';
import { describe, expect, it } from 'vitest';
import { ForgetService } from './forget/index.js';
import { DefaultMemoryGate, MemoryGate } from './gate/index.js';
import { Ingestion } from './ingestion/ingestion.js';
import { createMemoryModule, createRecallModule } from './memory-module.js';
import { DefaultTurnPlanner, TurnPlanner } from './planning/index.js';
import { DefaultPromotionService, PromotionService } from './promotion/index.js';
import { DefaultRecallService, RecallService } from './recall/index.js';
import { DefaultGroupIdResolver, GroupIdResolver } from './scopes/index.js';
import { ConfiguredMemorySettings, MemoryConfiguration } from './settings/index.js';
import type { ChatTurn } from './ports.js';
import { ReviewQueue } from './review/index.js';
import { SecretGuard, SecretlintSecretGuard } from './secrets/index.js';
import { FakeGraphitiApi } from '../test-support/fake-graphiti-api.js';
import { bindFakeHostPorts } from '../test-support/fake-host-ports.js';
import { FixedGraphitiConnection } from '../test-support/fakes.js';

describe('policy services in a container', () => {
  it('resolve from their tokens and work together', async () => {
    const container = new Container();
    const api = new FakeGraphitiApi();
    bindFakeHostPorts(container, {
      settings: { enabled: true, recall: { enabled: true } },
      consentFor: 'http://localhost:8000',
      connection: new FixedGraphitiConnection(api),
    });
    container.bind(SecretGuard).to(SecretlintSecretGuard).inSingletonScope();
    container.bind(MemoryConfiguration).to(ConfiguredMemorySettings).inSingletonScope();
    container.bind(MemoryGate).to(DefaultMemoryGate).inSingletonScope();
    container.bind(GroupIdResolver).to(DefaultGroupIdResolver).inSingletonScope();
    container.bind(PromotionService).to(DefaultPromotionService).inSingletonScope();
    container.bind(TurnPlanner).to(DefaultTurnPlanner).inSingletonScope();
    container.bind(RecallService).to(DefaultRecallService).inSingletonScope();

    const turn: ChatTurn = {
      id: 't1',
      sessionId: 's1',
      user: { text: 'preference: tabs over spaces', timestamp: '2026-01-02T03:04:05Z' },
    };
    expect(await container.get<TurnPlanner>(TurnPlanner).plan(turn)).toHaveLength(2);
    expect((await container.get<PromotionService>(PromotionService).plan({ kind: 'decision', scope: 'user', text: 'x' })).ok).toBe(true);
    expect((await container.get<RecallService>(RecallService).recall('tabs', { sessionId: 's1' })).scopes).toEqual([
      'session',
      'workspace',
    ]);
    expect(api.calls.map((call) => call.method)).toEqual(['search', 'search']);
  });
});

describe('createRecallModule', () => {
  const recallSide = [SecretGuard, MemoryConfiguration, MemoryGate, GroupIdResolver, RecallService];
  const sendSide = [Ingestion, PromotionService, TurnPlanner, ForgetService, ReviewQueue];
  const hostWith = (module: ReturnType<typeof createRecallModule>, api: FakeGraphitiApi): Container => {
    const container = new Container();
    bindFakeHostPorts(container, { settings: { enabled: true, recall: { enabled: true } }, consentFor: 'http://localhost:8000', connection: new FixedGraphitiConnection(api) });
    container.loadSync(module);
    return container;
  };

  it('binds what a recall resolves through and nothing of the send side', async () => {
    const api = new FakeGraphitiApi();
    const container = hostWith(createRecallModule(), api);
    for (const token of recallSide) expect(container.isBound(token)).toBe(true);
    for (const token of sendSide) expect(container.isBound(token)).toBe(false);
    const result = await container.get<RecallService>(RecallService).recall('tabs', { sessionId: 's1' });
    expect(result.scopes).toEqual(['session', 'workspace']);
    expect(api.calls.map((call) => call.method)).toEqual(['search', 'search']);
  });

  it('is what createMemoryModule binds for recall, beside the send side', () => {
    const container = hostWith(createMemoryModule(), new FakeGraphitiApi());
    for (const token of [...recallSide, ...sendSide]) expect(container.isBound(token)).toBe(true);
    expect(container.get(RecallService)).toBeInstanceOf(DefaultRecallService);
    expect(container.get(SecretGuard)).toBeInstanceOf(SecretlintSecretGuard);
  });
});
