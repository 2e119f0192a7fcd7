// The MCP face's HTTP side, as upstream's FastMCP app serves it: `GET /health` and the Streamable
// HTTP endpoint at `/mcp/` (and `/mcp`), stateful: `initialize` opens a session whose id the client
// sends back in `mcp-session-id`; an unknown id (say, after a restart) is a 404.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { SessionTransport } from './mcp-session-transport.js';
import { createMcpServer, MCP_TOOL_NAMES, type McpToolContext } from './mcp-tools.js';
import type { RouteName } from './types.js';

const MCP_PATH = /^\/mcp\/?$/;

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

export class McpFace {
  private readonly sessions = new Map<string, SessionTransport>();

  constructor(private readonly context: McpToolContext) {}

  /** The route a request counts as for fault plans and the log: a tool name for `tools/call`. */
  routeOf(method: string, path: string, body: unknown): RouteName | null {
    if (path === '/health') return 'health';
    if (!MCP_PATH.test(path)) return null;
    if (method === 'POST' && typeof body === 'object' && body !== null && !Array.isArray(body)) {
      const call = body as { method?: unknown; params?: { name?: unknown } };
      const tool = call.method === 'tools/call' ? call.params?.name : undefined;
      if (typeof tool === 'string' && (MCP_TOOL_NAMES as readonly string[]).includes(tool)) return tool as RouteName;
    }
    return 'mcp';
  }

  /** `parsed` holds the body when it is JSON; anything else goes to the SDK as it came, to refuse. */
  async handle(
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
    bodyText: string,
    parsed: { readonly json: unknown } | undefined,
  ): Promise<void> {
    if (path === '/health') {
      if (request.method === 'GET') sendJson(response, 200, { status: 'healthy', service: 'graphiti-mcp' });
      else sendJson(response, 405, { detail: 'Method Not Allowed' });
      return;
    }
    if (!MCP_PATH.test(path)) {
      sendJson(response, 404, { detail: 'Not Found' });
      return;
    }
    const header = request.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    if (sessionId !== undefined) {
      const transport = this.sessions.get(sessionId);
      if (transport === undefined) {
        sendJson(response, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } });
        return;
      }
      await transport.handle(request, response, bodyText, parsed);
      return;
    }
    if (request.method !== 'POST' || !isInitializeRequest(parsed?.json)) {
      sendJson(response, 400, {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: 'Bad Request: No valid session ID provided' },
      });
      return;
    }
    const transport: SessionTransport = new SessionTransport(
      new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          this.sessions.set(id, transport);
        },
        onsessionclosed: (id) => {
          this.sessions.delete(id);
        },
      }),
    );
    await createMcpServer(this.context).connect(transport);
    await transport.handle(request, response, bodyText, parsed);
  }

  /** A restart: every session is forgotten, so clients must initialize again. */
  async dropSessions(): Promise<void> {
    const transports = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(transports.map((transport) => transport.close().catch(() => undefined)));
  }

  get sessionCount(): number {
    return this.sessions.size;
  }
}
