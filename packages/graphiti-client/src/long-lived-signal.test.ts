// A caller may pass one long-lived signal to every request (an ingestion service's lifetime, a
// CLI's Ctrl-C). Once a call has ended, it must leave no listener on that signal: otherwise they
// pile up with every call (MaxListenersExceededWarning, memory held for good), and aborting the
// signal at the end would cancel requests that finished long ago. Over real HTTP, both faces.
import { getEventListeners } from 'node:events';
import { startEmulator, type EmulatorFace, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGraphitiClient, GraphitiAbortError, type GraphitiServerChoice } from './index.js';

const CALLS = 12;

describe.each<{ kind: GraphitiServerChoice; face: EmulatorFace }>([
  { kind: 'rest', face: 'rest' },
  { kind: 'mcp', face: 'mcp' },
  { kind: 'auto', face: 'mcp' },
])('$kind client with one signal for every call', ({ kind, face }) => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ processingDelayMs: 1, face });
  });
  afterAll(() => emulator.close());

  it(`leaves no abort listener on it after ${CALLS} calls`, async () => {
    const client = createGraphitiClient({ baseUrl: emulator.url, kind, timeoutMs: 5_000 });
    const lifetime = new AbortController();
    try {
      for (let call = 0; call < CALLS; call++) {
        await client.getEpisodes(`signal-${kind}`, { lastN: 5 }, { signal: lifetime.signal, maxRetries: 0 });
      }
      expect(getEventListeners(lifetime.signal, 'abort')).toHaveLength(0);
    } finally {
      await client.close();
    }
  });

  it('still aborts a call under way when it fires', async () => {
    const client = createGraphitiClient({ baseUrl: emulator.url, kind, timeoutMs: 5_000 });
    const lifetime = new AbortController();
    // Opens the session (MCP) or finds the face (auto) first, so the abort meets the call itself.
    await client.getEpisodes(`signal-${kind}`, { lastN: 5 }, { signal: lifetime.signal });
    emulator.setFaults({ episodes: { hangRate: 1 }, get_episodes: { hangRate: 1 } });
    try {
      const call = client.getEpisodes(`signal-${kind}`, { lastN: 5 }, { signal: lifetime.signal, maxRetries: 0 });
      setTimeout(() => lifetime.abort(), 50);
      await expect(call).rejects.toBeInstanceOf(GraphitiAbortError);
      expect(getEventListeners(lifetime.signal, 'abort')).toHaveLength(0);
    } finally {
      emulator.setFaults({});
      await client.close();
    }
  });
});
