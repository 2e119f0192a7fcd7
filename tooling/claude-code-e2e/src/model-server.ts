// A scripted stand-in for Anthropic's Messages API on 127.0.0.1, so the real Claude Code CLI runs
// offline (ANTHROPIC_BASE_URL). It answers what the CLI calls — POST /v1/messages (SSE when the body
// says `stream: true`, JSON otherwise), POST /v1/messages/count_tokens and the HEAD / it sends to warm
// its connection — and records every request. Anything else is logged and answered 404, so a CLI
// update that calls something new shows up in the run's output instead of hanging.
import type http from 'node:http';
import { serveOnLoopback } from './loopback-server.js';

export interface ModelRequest {
  readonly method: string;
  /** The path without the query string (`/v1/messages`; the CLI adds `?beta=true`). */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** Lowercased header names only: values may hold the (dummy) API key. */
  readonly headerNames: readonly string[];
  /** The parsed JSON body; the raw text when it is not JSON; `null` when there is none. */
  readonly body: unknown;
  readonly at: string;
  /** False for requests the server does not know (answered 404). */
  readonly known: boolean;
}

/** What the scripted model says to one Messages request body. */
/** A tool call the scripted model makes instead of answering (Claude Code runs it and asks again with its result). */
export interface ScriptedToolUse {
  readonly toolUse: { readonly name: string; readonly input: Readonly<Record<string, unknown>> };
}

/** What the scripted model says to one Messages request body: text, or a tool call. */
export type ModelScript = (body: Readonly<Record<string, unknown>>) => string | ScriptedToolUse;

export interface RunningModelServer {
  /** `http://127.0.0.1:<port>`, for ANTHROPIC_BASE_URL. */
  readonly url: string;
  /** Every request so far, oldest first (a live view). */
  readonly requests: readonly ModelRequest[];
  close(): Promise<void>;
}

/** Every string inside a JSON value (system prompt, message text blocks, tool results), joined by newlines. */
export function textOf(value: unknown): string {
  const parts: string[] = [];
  const visit = (node: unknown): void => {
    if (typeof node === 'string') parts.push(node);
    else if (Array.isArray(node)) node.forEach(visit);
    else if (node !== null && typeof node === 'object') Object.values(node).forEach(visit);
  };
  visit(value);
  return parts.join('\n');
}

/** The Messages requests among `requests` (what reached "the model"). */
export function messagesRequests(requests: readonly ModelRequest[]): ModelRequest[] {
  return requests.filter((request) => request.method === 'POST' && request.path === '/v1/messages');
}

/** The server-sent events of one streamed answer, in the order the Messages API sends them. */
export function streamEvents(model: string, answer: string | ScriptedToolUse, id: string): string {
  const event = (type: string, data: Record<string, unknown>): string =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  if (typeof answer !== 'string') return toolUseEvents(event, model, answer, id);
  const text = answer;
  return [
    event('message_start', {
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 1 },
      },
    }),
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    event('ping', {}),
    event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }),
    event('content_block_stop', { index: 0 }),
    event('message_delta', {
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: Math.max(1, Math.ceil(text.length / 4)) },
    }),
    event('message_stop', {}),
  ].join('');
}

/** A streamed tool call: a `tool_use` block whose input arrives as JSON deltas, stop reason `tool_use`. */
function toolUseEvents(event: (type: string, data: Record<string, unknown>) => string, model: string, answer: ScriptedToolUse, id: string): string {
  return [
    event('message_start', { message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } }),
    event('content_block_start', { index: 0, content_block: { type: 'tool_use', id: toolUseId(id), name: answer.toolUse.name, input: {} } }),
    event('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(answer.toolUse.input) } }),
    event('content_block_stop', { index: 0 }),
    event('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 20 } }),
    event('message_stop', {}),
  ].join('');
}

/** The id of the tool call a scripted message makes (one per message). */
export function toolUseId(messageId: string): string {
  return `toolu_${messageId.replace(/^msg_/, '')}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function sendJson(response: http.ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_scripted' });
  response.end(JSON.stringify(value));
}

export async function startModelServer(options: {
  readonly script: ModelScript;
  /** Called once per request the server does not know (it answers 404). */
  readonly onUnknown?: (request: ModelRequest) => void;
}): Promise<RunningModelServer> {
  const requests: ModelRequest[] = [];
  let answered = 0;

  const server = await serveOnLoopback((request, response) => {
    const { url, method, body } = request;
    const route = `${method} ${url.pathname}`;
    const known = ['HEAD /', 'POST /v1/messages', 'POST /v1/messages/count_tokens'].includes(route);
    const recorded: ModelRequest = {
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headerNames: request.headerNames,
      body,
      at: new Date().toISOString(),
      known,
    };
    requests.push(recorded);
    if (!known) {
      options.onUnknown?.(recorded);
      sendJson(response, 404, { type: 'error', error: { type: 'not_found_error', message: `not scripted: ${route}` } });
      return;
    }
    if (method === 'HEAD') {
      response.writeHead(200).end();
      return;
    }
    if (!isRecord(body)) {
      sendJson(response, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'body must be a JSON object' } });
      return;
    }
    if (url.pathname === '/v1/messages/count_tokens') {
      sendJson(response, 200, { input_tokens: Math.ceil(textOf(body.messages).length / 4) });
      return;
    }
    const model = typeof body.model === 'string' ? body.model : 'scripted-model';
    const answer = options.script(body);
    const id = `msg_scripted_${++answered}`;
    if (body.stream === true) {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': 'req_scripted' });
      response.end(streamEvents(model, answer, id));
      return;
    }
    const text = typeof answer === 'string' ? answer : '';
    sendJson(response, 200, {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: typeof answer === 'string' ? [{ type: 'text', text }] : [{ type: 'tool_use', id: toolUseId(id), name: answer.toolUse.name, input: answer.toolUse.input }],
      stop_reason: typeof answer === 'string' ? 'end_turn' : 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: Math.max(1, Math.ceil(text.length / 4)) },
    });
  });
  return { url: server.url, requests, close: () => server.close() };
}
