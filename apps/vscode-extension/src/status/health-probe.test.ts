// While failing, the status probes Graphiti's health with a bounded backoff and returns to "on"
// as soon as it answers; with memory off it sends nothing at all.
import { describe, expect, it } from 'vitest';
import { activateExtension, waitFor, type Harness } from '../test-support/extension-harness.js';
import { answerMessages, chatRegistrations, noCancellation, updateSettings, windowRegistry } from '../test-support/vscode-double.js';
import { HealthProbe, probeDelay } from './health-probe.js';

const item = () => windowRegistry().statusBarItems[0];
const ON = { 'graphitiMemory.enabled': true };
const healthchecks = (harness: Harness) => harness.emulator.requests.filter((request) => request.path === '/healthcheck').length;

async function failingDelivery(harness: Harness): Promise<void> {
  await harness.command('graphitiMemory.promote', { kind: 'decision', scope: 'workspace', text: 'We use zod.' });
  const pipeline = await harness.ingestion();
  await waitFor(async () => {
    await pipeline.drain();
    return pipeline.stats().state === 'failing';
  }, 10_000, 'the refused send');
}

describe('probeDelay', () => {
  it('doubles from the first delay and stays under the cap', () => {
    const timing = { firstDelayMs: 2000, maxDelayMs: 60_000 };
    expect([0, 1, 2, 3, 4, 5, 6, 50].map((attempt) => probeDelay(timing, attempt))).toEqual([2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000]);
  });
});

describe('the health probe', () => {
  it('keeps probing while Graphiti is down, and the status returns to on by itself once it answers', async () => {
    const harness = await activateExtension({
      settings: { ...ON, 'graphitiMemory.recall.enabled': true, 'graphitiMemory.recall.timeoutMs': 100 },
      consented: true,
      emulator: { faults: { search: { errorRate: 1, errorStatus: 503 }, healthcheck: { errorRate: 1, errorStatus: 503 } } },
    });
    // A failed recall is the only sign of trouble: nothing else would ever clear it but an answer.
    await chatRegistrations().tools.get('graphiti_memory_search')?.invoke({ input: { query: 'how do we deploy?' }, toolInvocationToken: undefined }, noCancellation());
    expect(item()?.text).toContain("can't reach Graphiti");
    const probe = harness.container.get(HealthProbe);
    await waitFor(() => probe.attempts >= 2, 5000, 'two probes');
    expect(item()?.text).toContain("can't reach Graphiti");
    // The server comes back: no command, no chat turn, no refresh.
    harness.emulator.setFaults({});
    await waitFor(() => item()?.text === '$(database) Memory: on', 5000, 'the status back on');
    expect(probe.attempts).toBe(0);
  });

  it('while delivery fails, probes too, and the queue is sent once the server answers', async () => {
    const harness = await activateExtension({
      settings: { ...ON, 'graphitiMemory.maxAttempts': 1000 },
      consented: true,
      emulator: { faults: { messages: { errorRate: 1, errorStatus: 503 }, healthcheck: { errorRate: 1, errorStatus: 503 } } },
    });
    await failingDelivery(harness);
    expect(item()?.text).toContain("can't reach Graphiti · 1 waiting");
    await waitFor(() => harness.container.get(HealthProbe).attempts >= 1, 5000, 'a probe');
    harness.emulator.setFaults({});
    await waitFor(() => item()?.text === '$(database) Memory: on', 5000, 'the status back on with nothing waiting');
    expect(healthchecks(harness)).toBeGreaterThan(0);
  });

  it('Test Connection that finds the server healthy turns the status back on at once', async () => {
    const harness = await activateExtension({
      settings: { ...ON, 'graphitiMemory.recall.enabled': true, 'graphitiMemory.recall.timeoutMs': 100 },
      consented: true,
      emulator: { faults: { search: { hangRate: 1 }, healthcheck: { errorRate: 1, errorStatus: 503 } } },
    });
    answerMessages(undefined);
    await harness.command('graphitiMemory.showStatus');
    await chatRegistrations().tools.get('graphiti_memory_search')?.invoke({ input: { query: 'how do we deploy?' }, toolInvocationToken: undefined }, noCancellation());
    expect(item()?.text).toContain("can't reach Graphiti");
    harness.emulator.setFaults({ search: { hangRate: 1 } });
    answerMessages(undefined);
    const result = await harness.command<{ ok: boolean }>('graphitiMemory.testConnection', 'health');
    expect(result.ok).toBe(true);
    expect(item()?.text).toContain('Memory: on');
  });

  it('sends no probe while memory is off or without consent', async () => {
    const harness = await activateExtension({ settings: ON, emulator: { faults: { messages: { errorRate: 1, errorStatus: 503 } } } });
    answerMessages(undefined);
    updateSettings({ 'graphitiMemory.enabled': false });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(healthchecks(harness)).toBe(0);
    expect(harness.container.get(HealthProbe).attempts).toBe(0);
  });
});
