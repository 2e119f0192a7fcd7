// Recall against the emulator over real HTTP: turns planned and delivered as ingestion would,
// processed by the emulator's worker, then recalled.
import { GraphitiClient } from '@graphiti-memory/graphiti-client';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SystemClock } from '../clock/system-clock.js';
import type { ChatTurn } from '../ports.js';
import { deliverEntries } from '../../test-support/emulator-delivery.js';
import { createPolicyServices } from '../../test-support/memory-services.js';

let emulator: RunningEmulator;
let client: GraphitiClient;

beforeAll(async () => {
  emulator = await startEmulator({ quiet: true, processingDelayMs: 1 });
  client = new GraphitiClient({ baseUrl: emulator.url, maxRetries: 0 });
});

afterAll(async () => {
  await client.close();
  await emulator.close();
});

beforeEach(async () => {
  emulator.setFaults({});
  await client.clear();
  emulator.clearRequests();
});

const day = 24 * 60 * 60 * 1000;
const isoDaysAgo = (days: number) => new Date(Date.now() - days * day).toISOString();

function servicesFor(settings: Record<string, unknown> = {}) {
  return createPolicyServices({
    api: client,
    clock: new SystemClock(),
    consentFor: emulator.url,
    workspace: { gitRemote: 'git@github.com:acme/shop.git', accountId: 'alice' },
    settings: { enabled: true, endpoint: emulator.url, recall: { enabled: true, timeoutMs: 2000 }, ...settings },
  });
}

function turn(id: string, sessionId: string, user: string, assistant: string, daysAgo: number): ChatTurn {
  return {
    id,
    sessionId,
    user: { text: user, timestamp: isoDaysAgo(daysAgo) },
    assistant: { text: assistant, timestamp: isoDaysAgo(daysAgo) },
  };
}

async function ingest(services: ReturnType<typeof servicesFor>, turns: readonly ChatTurn[]): Promise<void> {
  for (const chatTurn of turns) await deliverEntries(client, await services.planner.plan(chatTurn));
  await emulator.idle();
}

describe('DefaultRecallService against the emulator', () => {
  it('finds ingested facts, merged session first, de-duplicated across scopes', async () => {
    const services = servicesFor({ scopes: 'both' });
    await ingest(services, [turn('t1', 'chat-1', 'How is the release built?', 'The release pipeline runs on GitHub Actions.', 2)]);
    const result = await services.recall.recall('release pipeline', { sessionId: 'chat-1', scopes: 'both' });

    expect(result.timedOut).toBe(false);
    expect(result.errors).toEqual([]);
    expect(result.scopes).toEqual(['session', 'workspace']);
    // The same sentence was stored in both groups: recalled once, from the session.
    const pipeline = result.facts.filter((item) => /pipeline runs on GitHub Actions/i.test(item.fact));
    expect(pipeline).toHaveLength(1);
    expect(pipeline[0]?.scope).toBe('session');
    expect(result.facts.map((item) => item.rank)).toEqual(result.facts.map((_, index) => index));
    const searches = emulator.requests.filter((request) => request.route === 'search');
    expect(searches).toHaveLength(2);
    expect(services.telemetry.ofType('recall')[0]).toMatchObject({ outcome: 'hit', facts: result.facts.length });
  });

  it('drops facts invalidated by a newer one, or marks them when asked', async () => {
    const services = servicesFor({ scopes: 'workspace' });
    await ingest(services, [
      turn('t1', 'chat-1', 'Which package manager?', 'The build uses npm.', 3),
      turn('t2', 'chat-1', 'Did that change?', 'The build switched to pnpm instead.', 1),
    ]);
    const current = await services.recall.recall('build npm pnpm', { scopes: ['workspace'] });
    expect(current.facts.map((item) => item.fact)).toContain('The build switched to pnpm instead');
    expect(current.facts.map((item) => item.fact)).not.toContain('The build uses npm');

    const history = await services.recall.recall('build npm pnpm', { scopes: ['workspace'], keepSuperseded: true });
    const old = history.facts.find((item) => item.fact === 'The build uses npm');
    expect(old?.superseded).toBe(true);
  });

  it('stops at maxFacts', async () => {
    const services = servicesFor({ scopes: 'session' });
    await ingest(services, [
      turn('t1', 'chat-1', 'Tell me about deploys.', 'Deploys run nightly. Deploys need approval. Deploys notify the team. Deploys use canaries.', 1),
    ]);
    const result = await services.recall.recall('deploys', { sessionId: 'chat-1', scopes: ['session'], maxFacts: 2 });
    expect(result.facts).toHaveLength(2);
  });

  it('returns within the deadline with timedOut when searches are slow, and aborts them', async () => {
    const services = servicesFor();
    emulator.setFaults({ search: { latencyMs: 5000 } });
    const result = await services.recall.recall('anything at all', { sessionId: 'chat-1', timeoutMs: 150 });
    expect(result).toMatchObject({ facts: [], timedOut: true, errors: [], scopes: ['session', 'workspace'] });
    expect(result.elapsedMs).toBeLessThan(5000);
    expect(services.telemetry.ofType('recall')[0]?.outcome).toBe('timeout');
  });

  it('captures server errors per scope instead of throwing', async () => {
    const services = servicesFor();
    emulator.setFaults({ search: { errorRate: 1, errorStatus: 503 } });
    const result = await services.recall.recall('anything at all', { sessionId: 'chat-1' });
    expect(result.facts).toEqual([]);
    expect(result.timedOut).toBe(false);
    expect(result.errors).toEqual([
      { scope: 'session', errorClass: 'GraphitiServerError' },
      { scope: 'workspace', errorClass: 'GraphitiServerError' },
    ]);
    expect(emulator.requests.filter((request) => request.route === 'search')).toHaveLength(2);
    expect(services.telemetry.ofType('recall')[0]?.outcome).toBe('error');
  });

  it('sends nothing for a blank query', async () => {
    const services = servicesFor();
    await services.recall.recall('   ', { sessionId: 'chat-1' });
    expect(emulator.requests).toEqual([]);
  });
});
