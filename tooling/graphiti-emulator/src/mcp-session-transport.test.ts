// SessionTransport answers a session's plain requests itself and must do so exactly as the SDK's
// transport does. Each exchange here goes twice over real HTTP: once as a direct request
// (`content-type: application/json`) and once with a content type the direct path leaves to the
// SDK (`application/json; charset=utf-8`, which the SDK accepts), and both answers must match.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text as readText } from 'node:stream/consumers';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { LATEST_PROTOCOL_VERSION, type JSONRPCMessage, type JSONRPCRequest, type MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionTransport } from './mcp-session-transport.js';

const DIRECT = 'application/json';
const VIA_SDK = 'application/json; charset=utf-8';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

describe('SessionTransport', () => {
  let server: Server;
  let url: string;
  let transport: SessionTransport;
  let sdk: WebStandardStreamableHTTPServerTransport;
  /** What the stand-in for the SDK's Protocol does with each request after `initialize`. */
  let onRequest: (request: JSONRPCRequest, extra: MessageExtraInfo | undefined) => void;
  let sessionId: string | undefined;

  beforeEach(async () => {
    sdk = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => 'session-1' });
    transport = new SessionTransport(sdk);
    onRequest = () => undefined;
    sessionId = undefined;
    transport.onmessage = <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => {
      if (!('method' in message) || !('id' in message)) return;
      if (message.method === 'initialize') {
        void transport.send({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, serverInfo: { name: 'test', version: '0' } } });
        return;
      }
      onRequest(message as unknown as JSONRPCRequest, extra);
    };
    await transport.start();
    server = createServer((incoming, outgoing) => {
      void readText(incoming).then((text) => transport.handle(incoming, outgoing, text, text === '' ? undefined : { json: JSON.parse(text) as unknown }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp/`;
    const opened = await post(VIA_SDK, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 't', version: '0' } } });
    sessionId = String(opened.headers['mcp-session-id']);
  });

  afterEach(async () => {
    vi.restoreAllMocks();
    await transport.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  function post(contentType: string, body: unknown, signal?: AbortSignal): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { accept: 'application/json, text/event-stream', 'content-type': contentType, 'x-probe': 'seen' };
      if (sessionId !== undefined) Object.assign(headers, { 'mcp-session-id': sessionId, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION });
      const outgoing = httpRequest(url, { method: 'POST', headers, agent: false, ...(signal === undefined ? {} : { signal }) }, (incoming) => {
        readText(incoming).then((text) => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: text }), reject);
      });
      outgoing.on('error', reject);
      outgoing.end(JSON.stringify(body));
    });
  }

  /** An answer without what differs between any two answers (the date). */
  const comparable = (answer: Answer) => ({ ...answer, headers: { ...answer.headers, date: undefined } });

  it('answers a plain request itself, with the status, headers and SSE event the SDK writes', async () => {
    const sdkHandled = vi.spyOn(sdk, 'handleRequest');
    onRequest = (request) => void transport.send({ jsonrpc: '2.0', id: request.id, result: { content: [{ type: 'text', text: '{"facts":[]}' }] } });
    const direct = await post(DIRECT, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'x', arguments: {} } });
    expect(sdkHandled).not.toHaveBeenCalled();
    const viaSdk = await post(VIA_SDK, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'x', arguments: {} } });
    expect(sdkHandled).toHaveBeenCalledTimes(1);
    expect(direct.status).toBe(200);
    expect(direct.body).toBe('event: message\ndata: {"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"{\\"facts\\":[]}"}]}}\n\n');
    expect(comparable(direct)).toEqual(comparable(viaSdk));
  });

  it('writes a notification tied to the request on its stream before the answer, as the SDK does', async () => {
    onRequest = (request) => {
      void transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } }, { relatedRequestId: request.id });
      setTimeout(() => void transport.send({ jsonrpc: '2.0', id: request.id, result: {} }), 5);
    };
    const body = { jsonrpc: '2.0', id: 'call-1', method: 'tools/call', params: { name: 'x', arguments: {} } };
    const direct = await post(DIRECT, body);
    expect(direct.body.match(/^event: message$/gm)).toHaveLength(2);
    expect(comparable(direct)).toEqual(comparable(await post(VIA_SDK, body)));
  });

  it('hands handlers the same request information (headers, url) the SDK does', async () => {
    const seen: unknown[] = [];
    onRequest = (request, extra) => {
      seen.push({ headers: extra?.requestInfo?.headers, url: extra?.requestInfo?.url?.href });
      void transport.send({ jsonrpc: '2.0', id: request.id, result: {} });
    };
    await post(DIRECT, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    await post(VIA_SDK, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const [direct, viaSdk] = seen as [{ headers: Record<string, string>; url: string }, { headers: Record<string, string>; url: string }];
    expect(direct.url).toBe(viaSdk.url);
    expect(direct.headers['x-probe']).toBe('seen');
    expect({ ...direct.headers, 'content-type': undefined, 'content-length': undefined }).toEqual({
      ...viaSdk.headers,
      'content-type': undefined,
      'content-length': undefined,
    });
  });

  it('fails a late answer to a client that left with the SDK’s error, on either path', async () => {
    const failures: string[] = [];
    for (const contentType of [DIRECT, VIA_SDK]) {
      let pending: JSONRPCRequest | undefined;
      onRequest = (request) => {
        pending = request;
      };
      const leave = new AbortController();
      const sent = post(contentType, { jsonrpc: '2.0', id: 42, method: 'tools/call', params: { name: 'slow', arguments: {} } }, leave.signal).catch(() => undefined);
      await vi.waitFor(() => expect(pending).toBeDefined());
      leave.abort();
      await sent;
      await new Promise((resolve) => setTimeout(resolve, 20));
      await transport.send({ jsonrpc: '2.0', id: 42, result: {} }).catch((error: Error) => failures.push(error.message));
    }
    expect(failures).toEqual(['No connection established for request ID: 42', 'No connection established for request ID: 42']);
  });

  it('ends the answers it still owes when the session closes', async () => {
    // Close only once the request is owed (a fixed sleep lost that race on a loaded machine).
    const owed = new Promise<void>((resolve) => {
      onRequest = () => resolve();
    });
    const answer = post(DIRECT, { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'never', arguments: {} } });
    await owed;
    const closed = vi.fn();
    transport.onclose = closed;
    await transport.close();
    expect(await answer).toMatchObject({ status: 200, body: '' });
    expect(closed).toHaveBeenCalledTimes(1);
  });

  it('leaves to the SDK what it must refuse or treat specially: another session, a batch, a notification', async () => {
    const sdkHandled = vi.spyOn(sdk, 'handleRequest');
    onRequest = (request) => void transport.send({ jsonrpc: '2.0', id: request.id, result: {} });
    const saved = sessionId;
    sessionId = 'not-this-session';
    expect((await post(DIRECT, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(404);
    sessionId = saved;
    expect((await post(DIRECT, [{ jsonrpc: '2.0', id: 2, method: 'tools/list' }])).status).toBe(200);
    expect((await post(DIRECT, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    expect((await post(DIRECT, { jsonrpc: '2.0', id: 3, method: 'tools/list', extra: true })).status).toBe(400);
    expect(sdkHandled).toHaveBeenCalledTimes(4);
  });
});
