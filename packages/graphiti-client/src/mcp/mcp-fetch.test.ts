import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GraphitiMcpClient } from './mcp-client.js';
import { startScriptedServer, type ScriptedServer } from '../../test-support/scripted-server.js';
import { createMcpFetch, sseAsJson, sseData } from './mcp-fetch.js';

describe('sseData', () => {
  it('takes the data of each event, joining multi-line data and skipping data-less events', () => {
    const body = 'event: message\r\nid: 1\r\ndata: {"a":1}\r\n\r\n: comment\n\nevent: message\ndata: {"b":\ndata: 2}\n\n';
    expect(sseData(body)).toEqual(['{"a":1}', '{"b":\n2}']);
  });

  it('answers nothing for a body without events', () => {
    expect(sseData('')).toEqual([]);
  });
});

describe('sseAsJson', () => {
  it('reads one event as the message itself and several as a batch', () => {
    expect(sseAsJson('event: message\ndata: {"id":1}\n\n')).toBe('{"id":1}');
    expect(sseAsJson('event: message\r\ndata: {"id":1}\r\n\r\nevent: message\r\ndata: {"id":2}\r\n\r\n')).toBe('[{"id":1},{"id":2}]');
  });
});

describe('createMcpFetch', () => {
  let server: ScriptedServer;
  let agent: Agent;

  beforeAll(async () => {
    agent = new Agent();
    server = await startScriptedServer((request, response) => {
      if (request.url === '/sse') {
        response.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 'session-1' });
        response.write('event: message\r\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\r\n\r\n');
        response.end();
      } else if (request.url === '/accepted') {
        response.writeHead(202);
        response.end();
      } else {
        response.writeHead(400, { 'content-type': 'text/plain' });
        response.end('not this');
      }
    });
  });

  afterAll(async () => {
    await server.close();
    await agent.close();
  });

  const mcpFetch = () => createMcpFetch(agent, 5_000, { 'user-agent': 'test-agent', authorization: 'Bearer base' });

  it('sends the client headers under the request’s own, which win on a clash', async () => {
    const headers = new Headers({ 'mcp-session-id': 'session-1', authorization: 'Bearer request' });
    await mcpFetch()(new URL(`${server.url}/sse`), { method: 'POST', headers, body: '{}' });
    const sent = server.requests.at(-1);
    expect(sent?.headers).toMatchObject({ 'user-agent': 'test-agent', authorization: 'Bearer request', 'mcp-session-id': 'session-1' });
    expect(sent?.body).toBe('{}');
  });

  it('hands an SSE answer to the SDK as the equivalent JSON answer', async () => {
    const response = await mcpFetch()(`${server.url}/sse`, { method: 'POST', body: '{}' });
    expect(response.ok).toBe(true);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/json');
    expect(response.headers.get('mcp-session-id')).toBe('session-1');
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it('answers 202 without a body, keeps a failure’s status and text, and declines the GET stream', async () => {
    const accepted = await mcpFetch()(`${server.url}/accepted`, { method: 'POST', body: '{}' });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toBeNull();
    const refused = await mcpFetch()(`${server.url}/other`, { method: 'POST', body: '{}' });
    expect(refused.ok).toBe(false);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toBe('not this');
    const stream = await mcpFetch()(`${server.url}/sse`, { method: 'GET' });
    expect(stream.status).toBe(405);
  });
});

describe('GraphitiMcpClient on the wire', () => {
  let server: ScriptedServer | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('sends its API key and user agent with the session’s headers, and reads CRLF-framed SSE like upstream’s', async () => {
    // sse-starlette, which upstream's FastMCP streams through, ends SSE lines with \r\n.
    server = await startScriptedServer((request, response) => {
      const message = JSON.parse(request.body === '' ? 'null' : request.body) as { id?: number; method?: string; params?: { protocolVersion?: string } } | null;
      if (request.method === 'DELETE' || message?.id === undefined) {
        response.writeHead(request.method === 'DELETE' ? 200 : 202, { 'mcp-session-id': 'session-7' });
        response.end();
        return;
      }
      const result =
        message.method === 'initialize'
          ? { protocolVersion: message.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'scripted', version: '1' } }
          : { content: [{ type: 'text', text: JSON.stringify({ message: 'Facts retrieved successfully', facts: [] }) }] };
      response.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 'session-7' });
      response.write(`event: message\r\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result })}\r\n\r\n`);
      response.end();
    });
    const client = new GraphitiMcpClient({ baseUrl: server.url, apiKey: 'key-1', userAgent: 'graphiti-test/1' });
    await expect(client.search({ group_ids: ['g'], query: 'q' })).resolves.toEqual({ facts: [] });
    await client.search({ group_ids: ['g'], query: 'again' });
    await client.close();
    const posts = server.requests.filter((request) => request.method === 'POST');
    expect(posts.map((request) => (JSON.parse(request.body) as { method: string }).method)).toEqual([
      'initialize',
      'notifications/initialized',
      'tools/call',
      'tools/call',
    ]);
    for (const request of server.requests) {
      expect(request.headers).toMatchObject({ authorization: 'Bearer key-1', 'user-agent': 'graphiti-test/1' });
    }
    for (const request of posts.slice(1)) {
      expect(request.headers['mcp-session-id']).toBe('session-7');
      expect(request.headers['mcp-protocol-version']).toEqual(expect.any(String));
      expect(request.headers.accept).toBe('application/json, text/event-stream');
    }
  });
});
