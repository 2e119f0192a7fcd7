// Bounded reads (issue 31.7): an answer larger than `maxResponseBytes` is cut at the cap and
// reported as GraphitiResponseTooLargeError, on both faces, within the call's timeout, without
// reading (or keeping) the rest. A scripted loopback server streams up to 100 MB as fast as the
// client reads; what it managed to write before the client hung up shows nothing was read far
// past the cap.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { GraphitiClient, GraphitiMcpClient, GraphitiResponseTooLargeError, DEFAULT_MAX_RESPONSE_BYTES, type GraphitiApi } from './index.js';
import { startScriptedServer, type ScriptedServer } from '../test-support/scripted-server.js';

const HUNDRED_MB = 100 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'a');

const servers: ScriptedServer[] = [];
const clients: { close(): Promise<void> }[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

interface Stream {
  /** Bytes the server wrote before the client stopped reading. */
  written: number;
  done: Promise<void>;
}

/** Streams `total` bytes of a JSON-looking body, waiting on back-pressure (as a real server does). */
function streamBody(response: ServerResponse, total: number, stream: Stream, contentType = 'application/json'): void {
  response.writeHead(200, { 'content-type': contentType });
  stream.done = new Promise<void>((resolve) => {
    response.on('close', () => resolve());
    const pump = (): void => {
      while (stream.written < total) {
        stream.written += CHUNK.length;
        if (!response.write(stream.written === CHUNK.length ? Buffer.from(`{"facts":[${'"x",'.repeat(10)}`) : CHUNK)) {
          response.once('drain', pump);
          return;
        }
      }
      response.end();
    };
    pump();
  });
}

async function streamingServer(path: string, total: number, contentType?: string): Promise<{ url: string; stream: Stream }> {
  const stream: Stream = { written: 0, done: Promise.resolve() };
  const server = await startScriptedServer((request, response) => {
    if (request.url.startsWith(path)) streamBody(response, total, stream, contentType);
    else {
      response.writeHead(404);
      response.end();
    }
  });
  servers.push(server);
  return { url: server.url, stream };
}

function track<Client extends { close(): Promise<void> }>(client: Client): Client {
  clients.push(client);
  return client;
}

async function failure(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => expect.unreachable('the call should have failed'),
    (error: unknown) => error,
  );
}

describe('maxResponseBytes', () => {
  it('defaults to 10 MiB', () => {
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(10 * 1024 * 1024);
  });

  it('REST: a 100 MB answer is cut at the cap within the timeout, reported as GraphitiResponseTooLargeError, not retried', async () => {
    const { url, stream } = await streamingServer('/search', HUNDRED_MB);
    const client = track(new GraphitiClient({ baseUrl: url, timeoutMs: 5_000, maxRetries: 2 }));
    const started = Date.now();
    const error = await failure(client.search({ group_ids: ['g'], query: 'q', max_facts: 10 }));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error).toBeInstanceOf(GraphitiResponseTooLargeError);
    expect(error).toMatchObject({ kind: 'response-too-large', retryable: false, limitBytes: DEFAULT_MAX_RESPONSE_BYTES, method: 'POST', path: '/search' });
    expect((error as Error).message).toContain('maxResponseBytes');
    await stream.done;
    // The server stopped once the client hung up: near the cap (plus socket buffers), far from 100 MB.
    expect(stream.written).toBeLessThan(DEFAULT_MAX_RESPONSE_BYTES + 8 * 1024 * 1024);
    expect(servers[0]?.requests).toHaveLength(1);
  });

  it('REST: a smaller cap set on the client applies, and a declared Content-Length over it is refused before its body', async () => {
    const declared = await startScriptedServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(HUNDRED_MB) });
      response.write('{');
      // Never ends: only the declared length can tell.
    });
    servers.push(declared);
    const client = track(new GraphitiClient({ baseUrl: declared.url, timeoutMs: 5_000, maxRetries: 0, maxResponseBytes: 64 * 1024 }));
    const started = Date.now();
    const error = await failure(client.healthcheck());
    expect(error).toMatchObject({ kind: 'response-too-large', limitBytes: 64 * 1024 });
    expect(Date.now() - started).toBeLessThan(4_000);

    const { url, stream } = await streamingServer('/healthcheck', HUNDRED_MB);
    const small = track(new GraphitiClient({ baseUrl: url, timeoutMs: 5_000, maxRetries: 0, maxResponseBytes: 256 * 1024 }));
    expect(await failure(small.healthcheck())).toMatchObject({ kind: 'response-too-large', limitBytes: 256 * 1024 });
    await stream.done;
    expect(stream.written).toBeLessThan(256 * 1024 + 8 * 1024 * 1024);
  });

  it('REST: an answer under the cap still reads', async () => {
    const server = await startScriptedServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ status: 'healthy' }));
    });
    servers.push(server);
    const client = track(new GraphitiClient({ baseUrl: server.url, maxResponseBytes: 1024 }));
    await expect(client.healthcheck()).resolves.toEqual({ status: 'healthy' });
  });

  it('refuses a cap below 1 KiB as a usage error', () => {
    expect(() => new GraphitiClient({ baseUrl: 'http://127.0.0.1:1', maxResponseBytes: 10 })).toThrow(/maxResponseBytes must be at least 1024/);
  });

  it('MCP: a 100 MB answer to the session opening is cut at the cap within the timeout', async () => {
    const { url, stream } = await streamingServer('/mcp', HUNDRED_MB, 'text/event-stream');
    const client: GraphitiApi & { close(): Promise<void>; openSession(): Promise<void> } = track(new GraphitiMcpClient({ baseUrl: url, timeoutMs: 5_000, maxRetries: 0 }));
    const started = Date.now();
    const error = await failure(client.openSession());
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error).toBeInstanceOf(GraphitiResponseTooLargeError);
    expect(error).toMatchObject({ kind: 'response-too-large', limitBytes: DEFAULT_MAX_RESPONSE_BYTES });
    await stream.done;
    expect(stream.written).toBeLessThan(DEFAULT_MAX_RESPONSE_BYTES + 8 * 1024 * 1024);
  });
});
