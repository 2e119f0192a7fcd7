import { afterEach, describe, expect, it } from 'vitest';
import { MCP_QUERY, MEMORY_RECALL_TOOL, memoryRecallCall } from './mcp-scenario.js';
import { messagesRequests, startModelServer, textOf, type RunningModelServer } from './model-server.js';

let server: RunningModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The events of an SSE body as `{ event, data }`, in order (the Messages API's framing). */
function parseSse(body: string): Array<{ event: string; data: Record<string, unknown> }> {
  return body
    .split('\n\n')
    .filter((frame) => frame.trim() !== '')
    .map((frame) => {
      const lines = frame.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice('event: '.length) ?? '';
      const data = JSON.parse(lines.find((line) => line.startsWith('data: '))?.slice('data: '.length) ?? 'null') as Record<string, unknown>;
      return { event, data };
    });
}

const post = (url: string, body: unknown): Promise<Response> =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'dummy' }, body: JSON.stringify(body) });

describe('the scripted model server', () => {
  it('streams the scripted answer as Messages API server-sent events when the body asks for a stream', async () => {
    server = await startModelServer({ script: (body) => (textOf(body.messages).includes('hello') ? 'hi there' : 'who?') });
    const response = await post(`${server.url}/v1/messages?beta=true`, {
      model: 'claude-test',
      stream: true,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = parseSse(await response.text());
    expect(events.map((event) => event.event)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    // Each frame's `event:` matches its data's `type`, as the SDK's stream reader expects.
    for (const event of events) expect(event.data.type).toBe(event.event);
    const text = events.flatMap((event) => (event.event === 'content_block_delta' ? [(event.data.delta as { text: string }).text] : [])).join('');
    expect(text).toBe('hi there');
    expect((events[0]?.data.message as { model: string }).model).toBe('claude-test');
    expect((events[5]?.data.delta as { stop_reason: string }).stop_reason).toBe('end_turn');
  });

  it('streams a scripted tool call as a tool_use block with its input as JSON deltas, and the MCP step calls memory_recall once', async () => {
    server = await startModelServer({ script: (body) => memoryRecallCall(body) ?? 'done' });
    const tools = [{ name: MEMORY_RECALL_TOOL, input_schema: { type: 'object' } }];
    const response = await post(`${server.url}/v1/messages`, { model: 'm', stream: true, tools, messages: [{ role: 'user', content: [{ type: 'text', text: 'deploy?' }] }] });
    const events = parseSse(await response.text());
    const start = events.find((event) => event.event === 'content_block_start')?.data.content_block as { type: string; id: string; name: string };
    expect(start).toMatchObject({ type: 'tool_use', name: MEMORY_RECALL_TOOL });
    const input = events.flatMap((event) => (event.event === 'content_block_delta' ? [(event.data.delta as { partial_json: string }).partial_json] : [])).join('');
    expect(JSON.parse(input)).toEqual({ query: MCP_QUERY, scopes: ['workspace'] });
    expect((events.find((event) => event.event === 'message_delta')?.data.delta as { stop_reason: string }).stop_reason).toBe('tool_use');
    // With the tool's result in the conversation it answers; without the tool offered it never calls it.
    const answered = await post(`${server.url}/v1/messages`, {
      model: 'm',
      tools,
      messages: [
        { role: 'assistant', content: [{ type: 'tool_use', id: start.id, name: MEMORY_RECALL_TOOL, input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: start.id, content: 'facts' }] },
      ],
    });
    expect(((await answered.json()) as { content: Array<{ text: string }> }).content[0]?.text).toBe('done');
    const plain = await post(`${server.url}/v1/messages`, { model: 'm', messages: [] });
    expect(((await plain.json()) as { stop_reason: string }).stop_reason).toBe('end_turn');
  });

  it('answers one JSON message without `stream`, and counts tokens', async () => {
    server = await startModelServer({ script: () => 'plain answer' });
    const message = (await (await post(`${server.url}/v1/messages`, { model: 'm', messages: [] })).json()) as { content: Array<{ text: string }>; stop_reason: string };
    expect(message.content[0]?.text).toBe('plain answer');
    expect(message.stop_reason).toBe('end_turn');
    const count = async (content: string): Promise<number> =>
      ((await (await post(`${server?.url}/v1/messages/count_tokens`, { messages: [{ role: 'user', content }] })).json()) as { input_tokens: number }).input_tokens;
    const short = await count('abcd');
    expect(short).toBeGreaterThan(0);
    expect(await count('abcd'.repeat(100))).toBeGreaterThan(short * 20);
  });

  it('records every request with its parsed body and header names only, and 404s what it does not know', async () => {
    const unknown: string[] = [];
    server = await startModelServer({ script: () => 'x', onUnknown: (request) => unknown.push(`${request.method} ${request.path}`) });
    expect((await fetch(server.url, { method: 'HEAD' })).status).toBe(200);
    await post(`${server.url}/v1/messages?beta=true`, { model: 'm', system: [{ type: 'text', text: '<graphiti_memory>fact</graphiti_memory>' }], messages: [] });
    const missing = await fetch(`${server.url}/api/oauth/profile`);
    expect(missing.status).toBe(404);
    expect(unknown).toEqual(['GET /api/oauth/profile']);

    expect(server.requests.map((request) => [request.method, request.path, request.known])).toEqual([
      ['HEAD', '/', true],
      ['POST', '/v1/messages', true],
      ['GET', '/api/oauth/profile', false],
    ]);
    const [messages] = messagesRequests(server.requests);
    expect(messages?.query).toEqual({ beta: 'true' });
    expect(textOf(messages?.body)).toContain('<graphiti_memory>fact</graphiti_memory>');
    expect(messages?.headerNames).toContain('x-api-key');
    expect(JSON.stringify(server.requests)).not.toContain('dummy');
  });
});

describe('textOf', () => {
  it('collects every string of nested arrays and objects', () => {
    expect(textOf({ a: ['x', { b: 'y', n: 1 }], c: null, d: 'z' }).split('\n')).toEqual(['x', 'y', 'z']);
  });
});
