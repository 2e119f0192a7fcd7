// Google's Gemini API as Gemini CLI (0.61.0) calls it: one
// `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` per model turn. Gemini CLI prepends a
// SessionStart hook's context to the prompt's text as `<hook_context>…</hook_context>\n\n`, and adds
// a BeforeAgent hook's as a part of its own, `<hook_context>…</hook_context>`, in the same user turn.
import { isRecord, records, serverSentEvents, type HookContexts, type WireFormat } from './wire-format.js';

const WHOLE = /^<hook_context>([\s\S]*)<\/hook_context>$/;
const PREFIX = /^<hook_context>([\s\S]*?)<\/hook_context>\n\n[\s\S]/;

export const geminiApi: WireFormat = {
  name: 'Gemini API',
  isModelCall: (method, pathname) => method === 'POST' && /^\/v1beta\/models\/[^/]+:streamGenerateContent$/.test(pathname),
  answer(text) {
    // One chunk: with two, Gemini CLI's AfterAgent `prompt_response` repeats the last one.
    const chunk = {
      candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    };
    return { contentType: 'text/event-stream', body: serverSentEvents([{ data: chunk }]) };
  },
  hookContexts(body): HookContexts {
    const contents = isRecord(body) ? records(body.contents) : [];
    const turn = contents.findLast((content) => content.role === 'user');
    const texts = records(turn?.parts).flatMap((part) => (typeof part.text === 'string' ? [part.text] : []));
    return {
      sessionStart: texts.flatMap((text) => (WHOLE.test(text) ? [] : (PREFIX.exec(text)?.slice(1, 2) ?? []))),
      prompt: texts.flatMap((text) => WHOLE.exec(text)?.slice(1, 2) ?? []),
    };
  },
};
