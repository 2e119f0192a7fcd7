// One MCP session's transport. The SDK's web-standard Streamable HTTP transport decides every
// exchange (initialize, refusals, batches, notifications, the GET stream, DELETE) except the one
// that makes up nearly all traffic: a single JSON-RPC request on this open session, with headers the
// SDK would take as they are. That one is answered here over node:http with the same status,
// headers and SSE event the SDK writes, without the WHATWG Request, Response and ReadableStream the
// SDK builds per exchange, which cost the emulator more than the tool call it carried (the bench's
// MCP face was the emulator's, not the client's, cost). Anything this path is unsure of goes to the
// SDK, which then answers or refuses it word for word; mcp-node-adapter.test.ts compares both paths
// with the SDK's own Node transport.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  JSONRPCRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageExtraInfo,
  type RequestId,
  type RequestInfo,
} from '@modelcontextprotocol/sdk/types.js';
import { absoluteUrl, handleWithTransport, headerRecord } from './mcp-node-adapter.js';

/** The headers the SDK puts on a request's SSE answer, in the order its Response yields them. */
function streamHeaders(sessionId: string): Record<string, string> {
  return {
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'content-type': 'text/event-stream',
    'mcp-session-id': sessionId,
    'x-accel-buffering': 'no',
  };
}

/** The SDK's SSE event for one message (no event ids: the emulator keeps no event store). */
const sseEvent = (message: JSONRPCMessage): string => `event: message\ndata: ${JSON.stringify(message)}\n\n`;

/** How many abandoned request ids a session remembers. */
const ABANDONED_KEPT = 1_000;

const isResponse = (message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } =>
  'id' in message && ('result' in message || 'error' in message);

/** What the SDK hands a handler as `extra.requestInfo`, built only if a handler reads it. */
class LazyRequestInfo implements RequestInfo {
  private headerRecord: RequestInfo['headers'] | undefined;
  private parsedUrl: URL | undefined;

  constructor(private readonly request: IncomingMessage) {}

  get headers(): RequestInfo['headers'] {
    this.headerRecord ??= headerRecord(this.request.headers);
    return this.headerRecord;
  }

  get url(): URL {
    this.parsedUrl ??= new URL(absoluteUrl(this.request));
    return this.parsedUrl;
  }
}

export class SessionTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  /** The answers this transport owes, by request id. */
  private readonly open = new Map<RequestId, ServerResponse>();
  /** Ids of requests whose client left before the answer: `send` then fails as the SDK's does. */
  private readonly abandoned = new Set<RequestId>();
  private closed = false;

  constructor(private readonly sdk: WebStandardStreamableHTTPServerTransport) {}

  get sessionId(): string | undefined {
    return this.sdk.sessionId;
  }

  async start(): Promise<void> {
    this.sdk.onmessage = (message, extra) => this.onmessage?.(message, extra);
    this.sdk.onerror = (error) => this.onerror?.(error);
    this.sdk.onclose = () => {
      this.closed = true;
      this.endOpenAnswers();
      this.onclose?.();
    };
    await this.sdk.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const requestId = isResponse(message) ? message.id : options?.relatedRequestId;
    const response = requestId === undefined ? undefined : this.open.get(requestId);
    if (response === undefined) {
      if (requestId !== undefined && this.abandoned.has(requestId)) {
        this.abandoned.delete(requestId);
        // The SDK's words when a request's stream is gone before its answer (the client left).
        throw new Error(`No connection established for request ID: ${String(requestId)}`);
      }
      // (The SDK declares the same options without exactOptionalPropertyTypes.)
      await this.sdk.send(message, options as Parameters<WebStandardStreamableHTTPServerTransport['send']>[1]);
      return;
    }
    if (!isResponse(message)) {
      response.write(sseEvent(message));
      return;
    }
    this.open.delete(message.id);
    response.end(sseEvent(message));
  }

  async close(): Promise<void> {
    this.endOpenAnswers();
    await this.sdk.close();
  }

  /** Answers one HTTP exchange of this session. */
  async handle(request: IncomingMessage, response: ServerResponse, bodyText: string, parsed: { readonly json: unknown } | undefined): Promise<void> {
    const call = parsed === undefined ? undefined : this.directRequest(request, parsed.json);
    if (call === undefined) {
      await handleWithTransport(this.sdk, request, response, bodyText, parsed);
      return;
    }
    const sessionId = this.sdk.sessionId as string;
    response.writeHead(200, streamHeaders(sessionId));
    // Headers leave with the answer when it is ready in this turn, else on the next turn, as the
    // SDK path sends them (`headersSent` is already true after writeHead, though nothing left).
    setImmediate(() => {
      if (this.open.get(call.id) === response && !response.destroyed) response.flushHeaders();
    });
    this.open.set(call.id, response);
    response.once('close', () => {
      if (this.open.get(call.id) !== response) return;
      this.open.delete(call.id);
      this.abandoned.add(call.id);
      // A request the server never answers (cancelled) would stay here: keep the newest only.
      if (this.abandoned.size > ABANDONED_KEPT) this.abandoned.delete(this.abandoned.values().next().value as RequestId);
    });
    this.onmessage?.(call, { requestInfo: new LazyRequestInfo(request) });
  }

  /**
   * The request, when the SDK would take this exchange as it is and answer it on an SSE stream of
   * its own: a POST of one JSON-RPC request (not `initialize`) on this initialized session, whose
   * Accept, Content-Type and protocol-version headers the SDK accepts. Anything else: undefined.
   */
  private directRequest(request: IncomingMessage, json: unknown): JSONRPCRequest | undefined {
    if (request.method !== 'POST' || this.closed || this.sdk.sessionId === undefined) return undefined;
    const { accept, 'content-type': contentType, 'mcp-session-id': session, 'mcp-protocol-version': version } = request.headers;
    if (accept === undefined || !accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
    if (contentType !== 'application/json' || session !== this.sdk.sessionId) return undefined;
    if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version as string)) return undefined;
    if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
    const checked = JSONRPCRequestSchema.safeParse(json);
    if (!checked.success || checked.data.method === 'initialize' || this.open.has(checked.data.id)) return undefined;
    return checked.data;
  }

  private endOpenAnswers(): void {
    for (const response of this.open.values()) response.end();
    this.open.clear();
  }
}
