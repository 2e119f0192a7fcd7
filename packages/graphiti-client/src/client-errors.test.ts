// Every error class, each produced by a real HTTP exchange: the emulator's routes and faults, or
// a scripted node:http server for answers the emulator never gives.
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  GraphitiAbortError,
  GraphitiApiError,
  GraphitiClient,
  GraphitiConnectionError,
  GraphitiNotFoundError,
  GraphitiRateLimitError,
  GraphitiResponseValidationError,
  GraphitiServerError,
  GraphitiTimeoutError,
  GraphitiValidationError,
  isGraphitiError,
  type GraphitiClientOptions,
} from './index.js';
import { closedPortUrl, json, startScriptedServer, type ScriptedServer } from '../test-support/scripted-server.js';

let emulator: RunningEmulator;
const clients: GraphitiClient[] = [];
const servers: ScriptedServer[] = [];

function clientFor(baseUrl: string, options: Omit<GraphitiClientOptions, 'baseUrl'> = {}): GraphitiClient {
  const client = new GraphitiClient({ baseUrl, maxRetries: 0, timeoutMs: 2_000, ...options });
  clients.push(client);
  return client;
}

async function scripted(handler: Parameters<typeof startScriptedServer>[0]): Promise<ScriptedServer> {
  const server = await startScriptedServer(handler);
  servers.push(server);
  return server;
}

async function failure(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => expect.unreachable('the call should have failed'),
    (error: unknown) => error,
  );
}

beforeAll(async () => {
  emulator = await startEmulator({ processingDelayMs: 1 });
});

afterEach(async () => {
  emulator.setFaults({});
  emulator.clearRequests();
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

afterAll(async () => {
  await emulator.close();
});

describe('HTTP errors', () => {
  it('404 from getEntityEdge, deleteEntityEdge and deleteEpisode → GraphitiNotFoundError with detail', async () => {
    const client = clientFor(emulator.url);
    const edge = await failure(client.getEntityEdge('missing-edge'));
    expect(edge).toBeInstanceOf(GraphitiNotFoundError);
    expect(edge).toMatchObject({ kind: 'not-found', status: 404, retryable: false, detail: 'edge missing-edge not found' });
    await expect(client.deleteEntityEdge('missing-edge')).rejects.toMatchObject({ detail: 'edge missing-edge not found' });
    const episode = await failure(client.deleteEpisode('missing-episode'));
    expect(episode).toBeInstanceOf(GraphitiNotFoundError);
    expect(episode).toMatchObject({ detail: 'node missing-episode not found', body: { detail: 'node missing-episode not found' } });
  });

  it('422 with FastAPI’s detail list → GraphitiValidationError carrying the list', async () => {
    const detail = [{ type: 'missing', loc: ['body', 'messages', 0, 'role'], msg: 'Field required', input: {} }];
    const server = await scripted((_request, response) => json(response, 422, { detail }));
    const error = await failure(
      clientFor(server.url).addMessages({ group_id: 'g', messages: [{ role: null, role_type: 'user', content: 'c' }] }),
    );
    expect(error).toBeInstanceOf(GraphitiValidationError);
    expect(error).toMatchObject({ kind: 'validation', status: 422, retryable: false, detail });
    expect((error as Error).message).toContain('body.messages.0.role: Field required');
  });

  it('422 injected by the emulator → GraphitiValidationError, not retried', async () => {
    emulator.setFaults({ search: { errorRate: 1, errorStatus: 422 } });
    const error = await failure(clientFor(emulator.url, { maxRetries: 2 }).search({ group_ids: null, query: 'q' }));
    expect(error).toBeInstanceOf(GraphitiValidationError);
    expect(emulator.requests).toHaveLength(1);
  });

  it('429 with Retry-After → GraphitiRateLimitError with retryAfterMs', async () => {
    emulator.setFaults({ search: { errorRate: 1, errorStatus: 429, retryAfterSeconds: 7 } });
    const error = await failure(clientFor(emulator.url).search({ group_ids: null, query: 'q' }));
    expect(error).toBeInstanceOf(GraphitiRateLimitError);
    expect(error).toMatchObject({ kind: 'rate-limit', status: 429, retryable: true, retryAfterMs: 7_000 });
  });

  it('500 → GraphitiServerError keeping the plain-text body', async () => {
    emulator.setFaults({ messages: { errorRate: 1 } });
    const error = await failure(
      clientFor(emulator.url).addMessages({ group_id: 'g', messages: [{ role: null, role_type: 'user', content: 'c' }] }),
    );
    expect(error).toBeInstanceOf(GraphitiServerError);
    expect(error).toMatchObject({ kind: 'server', status: 500, retryable: true, body: 'Internal Server Error' });
  });

  it('another 4xx (401 from an auth proxy) → GraphitiApiError, not retried', async () => {
    const server = await scripted((_request, response) => json(response, 401, { detail: 'Not authenticated' }));
    const error = await failure(clientFor(server.url, { maxRetries: 2, apiKey: 'wrong' }).healthcheck());
    expect(error).toBeInstanceOf(GraphitiApiError);
    expect(error).toMatchObject({ kind: 'api', status: 401, retryable: false });
    expect((error as Error).message).not.toContain('wrong');
    expect(server.requests).toHaveLength(1);
  });
});

describe('transport errors', () => {
  it('connection refused → GraphitiConnectionError, retryable', async () => {
    const error = await failure(clientFor(await closedPortUrl()).healthcheck());
    expect(error).toBeInstanceOf(GraphitiConnectionError);
    expect(error).toMatchObject({ kind: 'connection', retryable: true, method: 'GET', path: '/healthcheck', code: 'ECONNREFUSED' });
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
  });

  it('connection reset mid-request → GraphitiConnectionError with the socket code', async () => {
    emulator.setFaults({ healthcheck: { resetRate: 1 } });
    const error = await failure(clientFor(emulator.url, { maxRetries: 0 }).healthcheck());
    expect(error).toBeInstanceOf(GraphitiConnectionError);
    expect((error as GraphitiConnectionError).code).toMatch(/^(ECONNRESET|UND_ERR_SOCKET|EPIPE)$/);
  });

  it('no answer within timeoutMs (emulator hang) → GraphitiTimeoutError', async () => {
    emulator.setFaults({ search: { hangRate: 1 } });
    const error = await failure(clientFor(emulator.url, { timeoutMs: 150 }).search({ group_ids: null, query: 'q' }));
    expect(error).toBeInstanceOf(GraphitiTimeoutError);
    expect(error).toMatchObject({ kind: 'timeout', retryable: true, timeoutMs: 150 });
  });

  it('a per-call timeoutMs longer than the client’s is not cut short by the Agent’s own timers', async () => {
    // undici's header timer ticks in about one-second steps, hence second-scale numbers here.
    emulator.setFaults({ healthcheck: { latencyMs: 2_500 } });
    const client = clientFor(emulator.url, { timeoutMs: 1_000 });
    await expect(client.healthcheck({ timeoutMs: 6_000 })).resolves.toMatchObject({ status: 'healthy' });
  });

  it('a body that stalls after the headers → GraphitiTimeoutError: the timeout spans reading the body', async () => {
    const server = await scripted((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      response.write('{"status":'); // …and never the rest
    });
    const error = await failure(clientFor(server.url).healthcheck({ timeoutMs: 150 }));
    expect(error).toBeInstanceOf(GraphitiTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 150 });
  });

  it('the caller’s abort → GraphitiAbortError, sent once and never retried', async () => {
    emulator.setFaults({ search: { hangRate: 1 } });
    const controller = new AbortController();
    const pending = clientFor(emulator.url, { maxRetries: 3 }).search({ group_ids: null, query: 'q' }, { signal: controller.signal });
    await whenSeen(() => emulator.requests.length);
    controller.abort();
    const error = await failure(pending);
    expect(error).toBeInstanceOf(GraphitiAbortError);
    expect(error).toMatchObject({ kind: 'abort', retryable: false });
    expect(emulator.requests).toHaveLength(1);
  });

  it('an abort settles at once even while the request still waits for a connection', async () => {
    emulator.setFaults({ search: { hangRate: 1 } });
    // One connection, held by a hung request: the second call queues inside undici.
    const dispatcher = new Agent({ connections: 1 });
    const client = clientFor(emulator.url, { dispatcher, timeoutMs: 10_000 });
    const hung = client.search({ group_ids: null, query: 'first' }).catch((error: unknown) => error);
    const controller = new AbortController();
    const queued = client.search({ group_ids: null, query: 'second' }, { signal: controller.signal });
    await whenSeen(() => emulator.requests.length);
    controller.abort();
    await expect(queued).rejects.toBeInstanceOf(GraphitiAbortError);
    expect(emulator.requests).toHaveLength(1);
    await dispatcher.destroy();
    expect(await hung).toBeInstanceOf(GraphitiConnectionError);
  });

  it('an abort is told apart from a timeout even when both are armed', async () => {
    emulator.setFaults({ search: { hangRate: 1 } });
    const client = clientFor(emulator.url, { timeoutMs: 5_000 });
    const error = await failure(client.search({ group_ids: null, query: 'q' }, { signal: AbortSignal.timeout(50) }));
    // The caller's own signal fired (whatever its reason), so it is an abort, not our timeout.
    expect(error).toBeInstanceOf(GraphitiAbortError);
  });

  it('an already aborted signal sends nothing', async () => {
    const error = await failure(clientFor(emulator.url).healthcheck({ signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(GraphitiAbortError);
    expect(emulator.requests).toEqual([]);
  });
});

describe('response validation', () => {
  it('a 2xx body that is not JSON → GraphitiResponseValidationError with the raw body', async () => {
    const server = await scripted((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>sign in</html>');
    });
    const error = await failure(clientFor(server.url).healthcheck());
    expect(error).toBeInstanceOf(GraphitiResponseValidationError);
    expect(error).toMatchObject({ kind: 'response-validation', retryable: false, status: 200, rawBody: '<html>sign in</html>' });
  });

  it('a 2xx body of the wrong shape → GraphitiResponseValidationError with the zod issues', async () => {
    const server = await scripted((_request, response) => json(response, 200, { facts: [{ uuid: 1 }] }));
    const error = await failure(clientFor(server.url).search({ group_ids: ['g'], query: 'q' }));
    expect(error).toBeInstanceOf(GraphitiResponseValidationError);
    const validation = error as GraphitiResponseValidationError;
    expect(validation.rawBody).toBe('{"facts":[{"uuid":1}]}');
    expect(validation.issues.map((issue) => issue.path.join('.'))).toContain('facts.0.uuid');
  });

  it('an episodes answer that is an object instead of the bare array', async () => {
    const server = await scripted((_request, response) => json(response, 200, { episodes: [] }));
    await expect(clientFor(server.url).getEpisodes('g', { lastN: 1 })).rejects.toBeInstanceOf(GraphitiResponseValidationError);
  });
});

describe('every error is recognisable by isGraphitiError', () => {
  it('including ones thrown from HTTP exchanges', async () => {
    const error = await failure(clientFor(await closedPortUrl()).healthcheck());
    expect(isGraphitiError(error)).toBe(true);
  });
});

/** Resolves once `count()` reaches `at least`: the abort tests abort a request the server already holds. */
async function whenSeen(count: () => number, atLeast = 1): Promise<void> {
  while (count() < atLeast) await new Promise((resolve) => setTimeout(resolve, 10));
}
