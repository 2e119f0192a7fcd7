import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedModel, type RecordedModelRequest, type ScriptedModelServer } from './scripted-model-server.js';
import { chatCompletionsApi } from './wire/chat-completions-api.js';

describe('startScriptedModel', () => {
  let server: ScriptedModelServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('answers a model call with the script’s text, records it, and answers anything else 404 and reports it', async () => {
    const unknown: RecordedModelRequest[] = [];
    server = await startScriptedModel(chatCompletionsApi, (body) => `seen ${String(body.model)}`, (request) => unknown.push(request));
    const answer = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer secret' }, body: JSON.stringify({ model: 'm', stream: true, messages: [] }) });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/event-stream');
    expect(await answer.text()).toContain('"content":"seen m"');
    const other = await fetch(`${server.url}/v1/models`);
    expect(other.status).toBe(404);
    expect(unknown.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /v1/models']);
    expect(server.modelCalls()).toEqual([{ model: 'm', stream: true, messages: [] }]);
    expect(server.requests[0]?.headerNames).toContain('authorization');
    expect(JSON.stringify(server.requests)).not.toContain('secret');
  });

  it('does not answer a model route whose body is not a JSON object as a model call', async () => {
    server = await startScriptedModel(chatCompletionsApi, () => 'x', () => undefined);
    const answer = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: 'not json' });
    expect(answer.status).toBe(404);
    expect(server.modelCalls()).toEqual([]);
  });
});
