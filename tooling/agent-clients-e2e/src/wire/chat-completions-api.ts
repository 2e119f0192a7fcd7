// OpenAI's Chat Completions API as Copilot CLI (1.0.102, with a provider of its own) calls it: one
// streamed `POST /v1/chat/completions` per model turn. Copilot CLI puts a sessionStart hook's context
// in a user message of its own before the prompt, and appends a userPromptSubmitted hook's to the
// prompt inside `<system_reminder>…</system_reminder>`.
import { isRecord, partsText, records, serverSentEvents, type HookContexts, type WireFormat } from './wire-format.js';

const REMINDER = /<system_reminder>\n?([\s\S]*?)\n?<\/system_reminder>/g;

export const chatCompletionsApi: WireFormat = {
  name: 'OpenAI Chat Completions API',
  isModelCall: (method, pathname) => method === 'POST' && pathname === '/v1/chat/completions',
  answer(text, sequence, body) {
    const base = { id: `chatcmpl-scripted-${sequence}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: typeof body.model === 'string' ? body.model : 'scripted' };
    return {
      contentType: 'text/event-stream',
      body: serverSentEvents([
        { data: { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: text }, finish_reason: null }] } },
        { data: { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } } },
        { data: '[DONE]' },
      ]),
    };
  },
  hookContexts(body): HookContexts {
    const users = (isRecord(body) ? records(body.messages) : []).filter((message) => message.role === 'user');
    const prompt = users.at(-1);
    return {
      sessionStart: users.slice(0, -1).map((message) => partsText(message.content)),
      prompt: prompt === undefined ? [] : [...partsText(prompt.content).matchAll(REMINDER)].map((match) => match[1] ?? ''),
    };
  },
};
