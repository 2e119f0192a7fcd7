// Each API's hook-context reading on a request body the real client sent (trimmed, in
// real-requests/: the hooks answered `CTX-SESSIONSTART` and `CTX-PROMPT`), and its answer stream.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chatCompletionsApi } from './chat-completions-api.js';
import { geminiApi } from './gemini-api.js';
import { responsesApi } from './responses-api.js';
import type { WireFormat } from './wire-format.js';

function realRequest(name: string): { method: string; url: string; body: Record<string, unknown> } {
  return JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'real-requests', name), 'utf8')) as { method: string; url: string; body: Record<string, unknown> };
}

const dataLines = (stream: string): unknown[] =>
  stream
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice('data: '.length)) as unknown);

const cases: Array<[string, WireFormat, string]> = [
  ['Codex 0.169.0 (a resumed session: the first turn’s contexts are history)', responsesApi, 'codex-0.169.0-responses.json'],
  ['Gemini CLI 0.61.0', geminiApi, 'gemini-cli-0.61.0-stream-generate-content.json'],
  ['Copilot CLI 1.0.102', chatCompletionsApi, 'copilot-cli-1.0.102-chat-completions.json'],
];

describe.each(cases)('%s', (_label, format, file) => {
  const request = realRequest(file);
  const { pathname } = new URL(request.url, 'http://model.invalid');

  it('recognises the model call', () => {
    expect(format.isModelCall(request.method, pathname)).toBe(true);
    expect(format.isModelCall('GET', pathname)).toBe(false);
    expect(format.isModelCall('POST', '/v1/models')).toBe(false);
  });

  it('finds the session-start and prompt hook contexts of the current turn, each once, where the client put them', () => {
    expect(format.hookContexts(request.body)).toEqual({ sessionStart: ['CTX-SESSIONSTART'], prompt: ['CTX-PROMPT'] });
  });

  it('finds no context in a body without any', () => {
    expect(format.hookContexts({})).toEqual({ sessionStart: [], prompt: [] });
    expect(format.hookContexts('not json')).toEqual({ sessionStart: [], prompt: [] });
  });
});

describe('answer streams', () => {
  it('Responses API: the event sequence Codex reads, the text in the done item', () => {
    const answer = responsesApi.answer('Hello.', 1, {});
    expect(answer.contentType).toBe('text/event-stream');
    const events = dataLines(answer.body) as Array<{ type: string; item?: { content?: Array<{ text?: string }> } }>;
    expect(events.map((event) => event.type)).toEqual(['response.created', 'response.output_item.added', 'response.output_text.delta', 'response.output_item.done', 'response.completed']);
    expect(events[3]?.item?.content?.[0]?.text).toBe('Hello.');
  });

  it('Gemini API: one chunk with the whole text and a STOP', () => {
    const events = dataLines(geminiApi.answer('Hello.', 1, {}).body) as Array<{ candidates: Array<{ content: { parts: Array<{ text: string }> }; finishReason: string }> }>;
    expect(events).toHaveLength(1);
    expect(events[0]?.candidates[0]?.content.parts[0]?.text).toBe('Hello.');
    expect(events[0]?.candidates[0]?.finishReason).toBe('STOP');
  });

  it('Chat Completions: a content delta, a stop, then [DONE]', () => {
    const answer = chatCompletionsApi.answer('Hello.', 1, { model: 'm' });
    const events = dataLines(answer.body) as Array<{ model: string; choices: Array<{ delta: { content?: string }; finish_reason: string | null }> }>;
    expect(events.map((event) => event.choices[0]?.delta.content ?? event.choices[0]?.finish_reason)).toEqual(['Hello.', 'stop']);
    expect(events[0]?.model).toBe('m');
    expect(answer.body.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });
});

describe('where each client puts context, on small bodies', () => {
  it('Codex: developer messages right before the prompt are the session start’s, right after it the prompt hook’s', () => {
    const message = (role: string, text: string): Record<string, unknown> => ({ type: 'message', role, content: [{ type: 'input_text', text }] });
    const body = { input: [message('developer', 'system'), message('user', '<environment_context/>'), message('developer', 'brief'), message('user', 'prompt'), message('developer', 'recall')] };
    expect(responsesApi.hookContexts(body)).toEqual({ sessionStart: ['brief'], prompt: ['recall'] });
  });

  it('Gemini CLI: a prompt prefixed with hook context is the session start’s, a whole hook-context part the prompt hook’s', () => {
    const body = { contents: [{ role: 'user', parts: [{ text: '<session_context>x</session_context>' }] }, { role: 'user', parts: [{ text: '<hook_context>brief</hook_context>\n\nprompt' }, { text: '<hook_context>recall</hook_context>' }] }] };
    expect(geminiApi.hookContexts(body)).toEqual({ sessionStart: ['brief'], prompt: ['recall'] });
    expect(geminiApi.hookContexts({ contents: [{ role: 'user', parts: [{ text: 'just the prompt' }] }] })).toEqual({ sessionStart: [], prompt: [] });
  });

  it('Copilot CLI: user messages before the prompt are the session start’s, <system_reminder> in the prompt the prompt hook’s', () => {
    const body = { messages: [{ role: 'system', content: 's' }, { role: 'user', content: [{ type: 'text', text: 'brief' }] }, { role: 'user', content: 'prompt\n\n<system_reminder>\nrecall\n</system_reminder>' }] };
    expect(chatCompletionsApi.hookContexts(body)).toEqual({ sessionStart: ['brief'], prompt: ['recall'] });
    expect(chatCompletionsApi.hookContexts({ messages: [{ role: 'user', content: 'prompt' }] })).toEqual({ sessionStart: [], prompt: [] });
  });
});
