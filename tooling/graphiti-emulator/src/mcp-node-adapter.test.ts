// The emulator's MCP face (the SDK's web-standard transport through mcp-node-adapter.ts, and
// SessionTransport's direct answers to plain requests on a session) must
// answer on the wire exactly as the SDK's own Node transport (through @hono/node-server) answers:
// the same exchanges go to both, and status, the headers that matter and the bodies must match.
import { request as httpRequest, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text as readText } from 'node:stream/consumers';
import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EpisodeJob } from './episode-processor.js';
import { GraphStore } from './graph-store.js';
import { GroupQueues } from './group-queues.js';
import { createMcpServer } from './mcp-tools.js';
import { startEmulator } from './server.js';
import type { RunningEmulator } from './types.js';

interface Exchange {
  readonly status: number;
  readonly headers: Record<string, string | undefined>;
  readonly body: string;
}

/** The headers a client acts on (framing aside: the SDK's Node path itself varies between chunked and a length). */
const HEADERS_THAT_MATTER = ['content-type', 'cache-control', 'connection', 'x-accel-buffering', 'allow'] as const;

/** One raw HTTP exchange; `headersOnly` reads the head of a stream that stays open, then drops it. */
function exchange(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
  headersOnly = false,
): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${url}/mcp/`, { method, headers, agent: false }, (incoming) => {
      const picked: Record<string, string | undefined> = {};
      for (const name of [...HEADERS_THAT_MATTER, 'mcp-session-id']) {
        const value = incoming.headers[name];
        picked[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      if (headersOnly) {
        incoming.destroy();
        resolve({ status: incoming.statusCode ?? 0, headers: picked, body: '' });
        return;
      }
      readText(incoming).then((text) => resolve({ status: incoming.statusCode ?? 0, headers: picked, body: text }), reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** The reference: the emulator's session routing over the SDK's own Node transport, as the emulator had it. */
async function startReference(): Promise<{ url: string; close(): Promise<void> }> {
  const queues = new GroupQueues<EpisodeJob>(1, () => undefined);
  const context = { store: new GraphStore(), queues, defaultGroupId: 'main', release: 'main' as const, now: () => Date.now() };
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const server: Server = createServer((incoming, outgoing) => {
    void (async () => {
      const text = await readText(incoming);
      let parsed: unknown;
      try {
        parsed = text === '' ? undefined : (JSON.parse(text) as unknown);
      } catch {
        parsed = undefined; // the transport then reads the (consumed, so empty) body and refuses it as not JSON
      }
      const header = incoming.headers['mcp-session-id'];
      const sessionId = Array.isArray(header) ? header[0] : header;
      if (sessionId !== undefined) {
        const transport = sessions.get(sessionId);
        if (transport === undefined) {
          outgoing.writeHead(404).end();
          return;
        }
        await transport.handleRequest(incoming, outgoing, parsed);
        return;
      }
      if (!isInitializeRequest(parsed)) {
        outgoing.writeHead(400).end();
        return;
      }
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, transport),
        onsessionclosed: (id) => void sessions.delete(id),
      });
      await createMcpServer(context).connect(transport);
      await transport.handleRequest(incoming, outgoing, parsed);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      queues.stop();
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const ACCEPT_BOTH = 'application/json, text/event-stream';
const rpc = (id: number | undefined, method: string, params?: unknown): string =>
  JSON.stringify({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), method, ...(params === undefined ? {} : { params }) });

describe('MCP face on the wire, against the SDK’s own Node transport', () => {
  let reference: Awaited<ReturnType<typeof startReference>>;
  let emulator: RunningEmulator;
  /** Each side's session id, from its initialize answer. */
  const sessions = new Map<string, string>();

  beforeAll(async () => {
    reference = await startReference();
    emulator = await startEmulator({ face: 'mcp', processingDelayMs: 1 });
  });

  afterAll(async () => {
    await emulator.close();
    await reference.close();
  });

  /** Sends one exchange to both sides (each with its own session) and returns both answers. */
  async function both(
    method: string,
    options: { headers?: Record<string, string>; body?: string; session?: boolean; headersOnly?: boolean } = {},
  ): Promise<[Exchange, Exchange]> {
    const send = (url: string) => {
      const session = sessions.get(url);
      const headers: Record<string, string> = {
        accept: ACCEPT_BOTH,
        'content-type': 'application/json',
        ...(options.session === false || session === undefined ? {} : { 'mcp-session-id': session, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION }),
        ...options.headers,
      };
      return exchange(url, method, headers, options.body, options.headersOnly);
    };
    return [await send(reference.url), await send(emulator.url)];
  }

  function expectSame([expected, actual]: [Exchange, Exchange]): Exchange {
    expect({ status: actual.status, headers: { ...actual.headers, 'mcp-session-id': undefined } }).toEqual({
      status: expected.status,
      headers: { ...expected.headers, 'mcp-session-id': undefined },
    });
    expect(actual.headers['mcp-session-id'] === undefined).toBe(expected.headers['mcp-session-id'] === undefined);
    expect(actual.body).toBe(expected.body);
    return actual;
  }

  it('opens a session with the same SSE answer, then takes the initialized notification with 202', async () => {
    const initialize = rpc(1, 'initialize', {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'conformance', version: '0' },
    });
    const answers = await both('POST', { body: initialize, session: false });
    const answer = expectSame(answers);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/event-stream');
    expect(answer.body).toMatch(/^event: message\ndata: \{"result":\{"protocolVersion":/);
    sessions.set(reference.url, answers[0].headers['mcp-session-id'] ?? '');
    sessions.set(emulator.url, answers[1].headers['mcp-session-id'] ?? '');
    expect(expectSame(await both('POST', { body: rpc(undefined, 'notifications/initialized') })).status).toBe(202);
  });

  it('answers tools/list, tool calls, a tool’s refusal, an unknown tool and bad arguments alike', async () => {
    expect(expectSame(await both('POST', { body: rpc(2, 'tools/list') })).body).toContain('search_memory_facts');
    expectSame(await both('POST', { body: rpc(3, 'tools/call', { name: 'get_status', arguments: {} }) }));
    expectSame(
      await both('POST', { body: rpc(4, 'tools/call', { name: 'search_memory_facts', arguments: { query: 'x', max_facts: 0 } }) }),
    );
    expectSame(await both('POST', { body: rpc(5, 'tools/call', { name: 'no_such_tool', arguments: {} }) }));
    expectSame(await both('POST', { body: rpc(6, 'tools/call', { name: 'search_memory_facts', arguments: { query: 7 } }) }));
    expectSame(await both('POST', { body: rpc(7, 'no/such/method') }));
    expectSame(
      await both('POST', {
        body: `[${rpc(8, 'tools/call', { name: 'get_status', arguments: {} })},${rpc(9, 'tools/list')}]`,
      }),
    );
  });

  it('refuses what the SDK refuses, with the same status and JSON-RPC error', async () => {
    const call = rpc(10, 'tools/call', { name: 'get_status', arguments: {} });
    expect(expectSame(await both('POST', { body: call, headers: { accept: 'application/json' } })).status).toBe(406);
    expect(expectSame(await both('POST', { body: call, headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    expect(expectSame(await both('POST', { body: '{"jsonrpc": "2.0", "id": 11, ' })).status).toBe(400);
    expect(expectSame(await both('POST', { body: '' })).status).toBe(400);
    expect(expectSame(await both('POST', { body: '{"not":"json-rpc"}' })).status).toBe(400);
    expect(expectSame(await both('POST', { body: call, headers: { 'mcp-protocol-version': '1999-01-01' } })).status).toBe(400);
    expect(expectSame(await both('PUT', { body: call })).status).toBe(405);
    expect(expectSame(await both('GET', { headers: { accept: 'application/json' } })).status).toBe(406);
  });

  it('opens the standalone GET stream with the same headers, at once (not with its first keep-alive, 15 s on)', async () => {
    const started = Date.now();
    const answer = expectSame(await both('GET', { headers: { accept: 'text/event-stream' }, headersOnly: true }));
    expect(answer).toMatchObject({ status: 200, headers: { 'content-type': 'text/event-stream' } });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('ends the session on DELETE', async () => {
    expect(expectSame(await both('DELETE')).status).toBe(200);
    const [afterReference, afterEmulator] = await both('POST', { body: rpc(12, 'tools/list') });
    expect([afterReference.status, afterEmulator.status]).toEqual([404, 404]);
  });
});
