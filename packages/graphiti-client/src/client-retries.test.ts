// Retries, proven by counting requests in the emulator's log (or the scripted server's).
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  GraphitiAbortError,
  GraphitiClient,
  GraphitiConnectionError,
  GraphitiNotFoundError,
  GraphitiRateLimitError,
  GraphitiServerError,
  GraphitiTimeoutError,
} from './index.js';
import { closedPortUrl, json, startScriptedServer } from '../test-support/scripted-server.js';

let emulator: RunningEmulator;
let client: GraphitiClient;
const search = { group_ids: null, query: 'retry me', max_facts: 3 };

beforeAll(async () => {
  emulator = await startEmulator({ processingDelayMs: 1 });
  client = new GraphitiClient({ baseUrl: emulator.url, timeoutMs: 2_000, maxRetries: 2 });
});

afterEach(() => {
  emulator.setFaults({});
  emulator.clearRequests();
});

afterAll(async () => {
  await client.close();
  await emulator.close();
});

describe('retries', () => {
  it('retries a 500 maxRetries times, then fails with the server error', async () => {
    emulator.setFaults({ search: { errorRate: 1, errorStatus: 500 } });
    await expect(client.search(search)).rejects.toBeInstanceOf(GraphitiServerError);
    expect(emulator.requests.map((request) => request.status)).toEqual([500, 500, 500]);
  });

  it('a per-call maxRetries overrides the client’s; 0 means a single attempt', async () => {
    emulator.setFaults({ search: { errorRate: 1, errorStatus: 503 } });
    await expect(client.search(search, { maxRetries: 0 })).rejects.toBeInstanceOf(GraphitiServerError);
    expect(emulator.requests).toHaveLength(1);
    emulator.clearRequests();
    await expect(client.search(search, { maxRetries: 1 })).rejects.toBeInstanceOf(GraphitiServerError);
    expect(emulator.requests).toHaveLength(2);
  });

  it('never retries a 404', async () => {
    await expect(client.deleteEpisode('nope')).rejects.toBeInstanceOf(GraphitiNotFoundError);
    expect(emulator.requests).toHaveLength(1);
  });

  it('retries a hang as a timeout, each attempt bounded by timeoutMs', async () => {
    emulator.setFaults({ search: { hangRate: 1 } });
    await expect(client.search(search, { timeoutMs: 100, maxRetries: 1 })).rejects.toBeInstanceOf(GraphitiTimeoutError);
    expect(emulator.requests).toHaveLength(2);
    expect(emulator.requests.every((request) => request.fault === 'hang')).toBe(true);
  });

  it('retries connection resets', async () => {
    emulator.setFaults({ healthcheck: { resetRate: 1 } });
    await expect(client.healthcheck()).rejects.toBeInstanceOf(GraphitiConnectionError);
    expect(emulator.requests).toHaveLength(3);
  });

  it('retries a refused connection', async () => {
    // A refused port logs nothing, so count what the client hands to its dispatcher.
    let dispatched = 0;
    class CountingAgent extends Agent {
      override dispatch(...args: Parameters<Agent['dispatch']>): boolean {
        dispatched++;
        return super.dispatch(...args);
      }
    }
    const dispatcher = new CountingAgent();
    const refused = new GraphitiClient({ baseUrl: await closedPortUrl(), maxRetries: 1, dispatcher });
    const error = await refused.healthcheck().catch((caught: unknown) => caught);
    await dispatcher.close();
    expect(error).toBeInstanceOf(GraphitiConnectionError);
    expect(dispatched).toBe(2);
  });

  it('honours Retry-After on 429 before the next attempt', async () => {
    emulator.setFaults({ search: { errorRate: 1, errorStatus: 429, retryAfterSeconds: 1 } });
    await expect(client.search(search, { maxRetries: 1 })).rejects.toBeInstanceOf(GraphitiRateLimitError);
    const [first, second] = emulator.requests;
    expect(emulator.requests).toHaveLength(2);
    const waited = Date.parse(second?.at ?? '') - Date.parse(first?.at ?? '');
    expect(waited).toBeGreaterThanOrEqual(950);
  });

  it('gives up at once with the 429 when Retry-After is longer than it may wait', async () => {
    emulator.setFaults({ search: { errorRate: 1, errorStatus: 429, retryAfterSeconds: 3_600 } });
    const error = await client.search(search).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GraphitiRateLimitError);
    expect(error).toMatchObject({ retryAfterMs: 3_600_000 });
    expect(emulator.requests).toHaveLength(1);
  });

  it('an abort during a Retry-After wait ends the call at once, with no further request', async () => {
    emulator.setFaults({ search: { errorRate: 1, errorStatus: 503, retryAfterSeconds: 20 } });
    const controller = new AbortController();
    const pending = client.search(search, { signal: controller.signal });
    await whenSeen(() => emulator.requests.length);
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(GraphitiAbortError);
    expect(emulator.requests).toHaveLength(1);
  });

  it('succeeds on the attempt after a retryable failure (HTTP-date Retry-After)', async () => {
    let answered = 0;
    const server = await startScriptedServer((_request, response) => {
      answered++;
      if (answered === 1) json(response, 503, { detail: 'busy' }, { 'retry-after': new Date(Date.now() - 1000).toUTCString() });
      else json(response, 200, { status: 'healthy' });
    });
    const recovering = new GraphitiClient({ baseUrl: server.url, maxRetries: 2 });
    await expect(recovering.healthcheck()).resolves.toMatchObject({ status: 'healthy' });
    await recovering.close();
    await server.close();
    expect(server.requests).toHaveLength(2);
  });

  it('retries addMessages after a 500 and the retry is accepted', async () => {
    let answered = 0;
    const server = await startScriptedServer((_request, response) => {
      answered++;
      if (answered === 1) {
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end('Internal Server Error');
      } else json(response, 202, { message: 'Messages added to processing queue', success: true });
    });
    const retrying = new GraphitiClient({ baseUrl: server.url, maxRetries: 1 });
    const result = await retrying.addMessages({ group_id: 'g', messages: [{ role: null, role_type: 'user', content: 'x' }] });
    await retrying.close();
    await server.close();
    expect(result.success).toBe(true);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.body).toBe(server.requests[0]?.body);
    expect(JSON.parse(server.requests[1]?.body ?? '')).toMatchObject({ group_id: 'g' });
  });
});

/** Resolves once `count()` reaches `at least`: the abort tests abort a request the server already holds. */
async function whenSeen(count: () => number, atLeast = 1): Promise<void> {
  while (count() < atLeast) await new Promise((resolve) => setTimeout(resolve, 10));
}
