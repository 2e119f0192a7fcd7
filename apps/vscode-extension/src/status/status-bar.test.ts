import { describe, expect, it } from 'vitest';
import { activateExtension, waitFor } from '../test-support/extension-harness.js';
import { answerMessages, chatRegistrations, noCancellation, testHost, updateSettings, windowRegistry } from '../test-support/vscode-double.js';
import { STATE_CONTEXT_KEY } from './status-bar-contribution.js';


const item = () => windowRegistry().statusBarItems[0];

describe('status bar', () => {
  it('shows off, then needs consent, then on — and sets the welcome-view context key', async () => {
    const harness = await activateExtension();
    expect(item()?.text).toContain('Memory: off');
    expect(item()?.command).toBe('graphitiMemory.statusMenu');
    expect(item()?.visible).toBe(true);
    expect(testHost().contextKeys.get(STATE_CONTEXT_KEY)).toBe('off');
    answerMessages(undefined);
    updateSettings({ 'graphitiMemory.enabled': true });
    expect(item()?.text).toContain('needs consent');
    expect(testHost().contextKeys.get(STATE_CONTEXT_KEY)).toBe('needsConsent');
    await harness.context.workspaceState.update('graphitiMemory.consent', { endpoint: harness.emulator.url, grantedAt: '' });
    await harness.command('graphitiMemory.showStatus');
    expect(item()?.text).toContain('Memory: on');
  });

  it('shows invalid settings and says why in Show Status', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true, 'graphitiMemory.endpoint': 'not a url' } });
    const snapshot = await harness.command<{ state: string; summary: string }>('graphitiMemory.showStatus');
    expect(snapshot.state).toBe('invalid');
    expect(snapshot.summary).toContain('graphitiMemory.endpoint');
    expect(item()?.text).toContain('invalid settings');
  });

  it('shows the queue depth and failing when Graphiti refuses messages', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true, emulator: { faults: { messages: { errorRate: 1, errorStatus: 503 } } } });
    await harness.command('graphitiMemory.promote', { kind: 'decision', scope: 'workspace', text: 'We use zod.' });
    const pipeline = await harness.ingestion();
    // Planning runs off the chat path: drain until the refused send has been recorded.
    await waitFor(async () => {
      await pipeline.drain();
      return pipeline.stats().state === 'failing';
    }, 15_000, 'the refused send to be recorded');
    // The item follows delivery stats as they change (no Show Status, no polling).
    expect(item()?.text).toContain("can't reach Graphiti · 1 waiting");
    const snapshot = await harness.command<{ state: string; queueDepth: number }>('graphitiMemory.showStatus');
    expect(snapshot).toMatchObject({ state: 'failing', queueDepth: 1 });
    expect(item()?.text).toContain("can't reach Graphiti · 1 waiting");
  });

  it('counts a write Graphiti refused (422) as a dead letter, and Retry Dead Letters sends it again', async () => {
    const harness = await activateExtension({
      settings: { 'graphitiMemory.enabled': true },
      consented: true,
      emulator: { faults: { messages: { errorRate: 1, errorStatus: 422 } } },
    });
    await harness.command('graphitiMemory.promote', { kind: 'decision', scope: 'workspace', text: 'We use zod.' });
    const pipeline = await harness.ingestion();
    await waitFor(async () => {
      await pipeline.drain();
      return pipeline.stats().deadLetters === 1;
    }, 15_000, 'the refused message to become a dead letter');
    expect(item()?.text).toContain('1 not sent');
    const snapshot = await harness.command<{ deadLetters: number; queueDepth: number; summary: string }>('graphitiMemory.showStatus');
    expect(snapshot).toMatchObject({ deadLetters: 1, queueDepth: 0 });
    expect(snapshot.summary).toContain('Retry Unsent Messages');
    expect(snapshot.summary).not.toMatch(/dead letter/i);
    expect(item()?.text).toContain('1 not sent');
    harness.emulator.setFaults({});
    expect(await harness.command<number>('graphitiMemory.retryDeadLetters')).toBe(1);
    // Retrying changes the stats at once, and the item with them.
    expect(item()?.text).not.toContain('not sent');
    await waitFor(async () => {
      await pipeline.drain();
      return pipeline.stats().counters.sent === 1;
    }, 15_000, 'the retried message to be sent');
    expect(pipeline.stats().deadLetters).toBe(0);
  });
});

describe('recall health', () => {
  it('shows failing once a recall times out (memory-core reports it; the status listens)', async () => {
    const harness = await activateExtension({
      settings: { 'graphitiMemory.enabled': true, 'graphitiMemory.recall.enabled': true, 'graphitiMemory.recall.timeoutMs': 100 },
      consented: true,
      emulator: { faults: { search: { hangRate: 1 } } },
    });
    expect(item()?.text).toContain('Memory: on');
    const search = chatRegistrations().tools.get('graphiti_memory_search');
    const result = await search?.invoke({ input: { query: 'how do we deploy?' }, toolInvocationToken: undefined }, noCancellation());
    expect(JSON.stringify(result)).toContain('did not answer in time');
    // The health probe may already have brought it back on a loaded machine: the item showed it.
    expect(item()?.texts.some((text) => text.includes("can't reach Graphiti"))).toBe(true);
    // Its health check still answers: the probe brings the status back without another chat turn.
    await waitFor(() => item()?.text.includes('Memory: on') === true, 5000, 'the status back on after a health probe');
    expect(harness.emulator.requests.some((request) => request.path === '/healthcheck')).toBe(true);
  });
});
