// Every policy service resolves through inversify from its token alone: proves each constructor
// parameter carries its `@inject(Token)` (bundlers emit no decorator metadata to fall back on).
import { Container } from 'inversify';
import { describe, expect, it } from 'vitest';
import { DefaultMemoryGate, MemoryGate } from './gate/index.js';
import { DefaultTurnPlanner, TurnPlanner } from './planning/index.js';
import { DefaultPromotionService, PromotionService } from './promotion/index.js';
import { DefaultRecallService, RecallService } from './recall/index.js';
import { DefaultGroupIdResolver, GroupIdResolver } from './scopes/index.js';
import { ConfiguredMemorySettings, MemoryConfiguration } from './settings/index.js';
import type { ChatTurn } from './ports.js';
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
