// Proof of the gate over real HTTP: in every closed state, planning a turn (with a directive),
// promoting a memory and recalling send nothing at all to the emulator. The open-gate control at
// the end shows the same steps do reach it, so these tests can fail.
import { GraphitiClient } from '@graphiti-memory/graphiti-client';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SystemClock } from '../clock/system-clock.js';
import type { ChatTurn } from '../ports.js';
import { deliverEntries } from '../../test-support/emulator-delivery.js';
import { createPolicyServices, type PolicyServicesOptions } from '../../test-support/memory-services.js';

let emulator: RunningEmulator;
let client: GraphitiClient;

beforeAll(async () => {
  emulator = await startEmulator({ quiet: true });
  client = new GraphitiClient({ baseUrl: emulator.url, maxRetries: 0 });
});

afterAll(async () => {
  await client.close();
  await emulator.close();
});

beforeEach(() => emulator.clearRequests());

const turn: ChatTurn = {
  id: 'turn-1',
  sessionId: 'session-1',
  user: { text: 'decision: release every Friday\nWhich branch do we release from?', timestamp: '2026-01-02T03:04:05Z' },
  assistant: { text: 'Releases are cut from main.', timestamp: '2026-01-02T03:04:07Z' },
};

const allFeatures = {
  includeSystemMessages: true,
  autoPromote: { enabled: true, review: false },
  recall: { enabled: true, scopes: 'all' },
};

async function runEveryPath(options: PolicyServicesOptions) {
  const services = createPolicyServices({ api: client, clock: new SystemClock(), workspace: { accountId: 'alice' }, ...options });
  const entries = await services.planner.plan(turn);
  await deliverEntries(client, entries);
  const promotion = await services.promotion.plan({ kind: 'preference', scope: 'user', text: 'Short answers' });
  if (promotion.ok) await deliverEntries(client, [promotion.entry]);
  const recall = await services.recall.recall('which branch do we release from', { sessionId: 'session-1', scopes: 'all' });
  return { services, entries, promotion, recall };
}

describe('closed gate: zero requests reach Graphiti', () => {
  const endpointSettings = () => ({ enabled: true, endpoint: emulator.url, ...allFeatures });

  const states: Array<[string, () => PolicyServicesOptions]> = [
    ['disabled', () => ({ settings: { ...endpointSettings(), enabled: false }, consentFor: emulator.url })],
    ['untrusted', () => ({ settings: endpointSettings(), consentFor: emulator.url, workspace: { trusted: false, accountId: 'alice' } })],
    ['no-consent', () => ({ settings: endpointSettings(), consentFor: null })],
    ['consent-for-other-endpoint', () => ({ settings: endpointSettings(), consentFor: 'http://127.0.0.1:9' })],
    ['invalid-settings', () => ({ settings: { ...endpointSettings(), maxBatchSize: 0 }, consentFor: emulator.url })],
  ];

  it.each(states)('%s', async (reason, options) => {
    const { services, entries, promotion, recall } = await runEveryPath(options());
    expect(services.gate.evaluate()).toEqual({ open: false, reason });
    expect(entries).toEqual([]);
    expect(promotion).toEqual({ ok: false, reason: 'gate-closed' });
    expect(recall).toMatchObject({ facts: [], timedOut: false, scopes: [], errors: [] });
    expect(emulator.requests).toEqual([]);
  });

  it('control: the same paths do reach Graphiti when the gate is open', async () => {
    const { services, entries, promotion, recall } = await runEveryPath({ settings: endpointSettings(), consentFor: emulator.url });
    expect(services.gate.evaluate().open).toBe(true);
    expect(entries.length).toBeGreaterThan(0);
    expect(promotion.ok).toBe(true);
    expect(recall.scopes).toEqual(['session', 'workspace', 'user']);
    const routes = new Set(emulator.requests.map((request) => request.route));
    expect(routes).toEqual(new Set(['messages', 'search']));
  });
});
