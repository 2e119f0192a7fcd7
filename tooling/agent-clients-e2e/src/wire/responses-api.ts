// OpenAI's Responses API as Codex (0.169.0, `wire_api = "responses"`) calls it: one streamed
// `POST /v1/responses` per model turn. Codex puts a SessionStart hook's context into `input` as a
// `developer` message right before the user's prompt, a UserPromptSubmit hook's right after it.
import { isRecord, partsText, records, serverSentEvents, type HookContexts, type WireFormat } from './wire-format.js';

export const responsesApi: WireFormat = {
  name: 'OpenAI Responses API',
  isModelCall: (method, pathname) => method === 'POST' && pathname === '/v1/responses',
  answer(text, sequence) {
    const id = `resp_scripted_${sequence}`;
    const item = { type: 'message', id: `msg_scripted_${sequence}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
    const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };
    const event = (type: string, data: Record<string, unknown>): { event: string; data: unknown } => ({ event: type, data: { type, ...data } });
    return {
      contentType: 'text/event-stream',
      body: serverSentEvents([
        event('response.created', { response: { id } }),
        event('response.output_item.added', { output_index: 0, item: { ...item, content: [] } }),
        event('response.output_text.delta', { output_index: 0, content_index: 0, item_id: item.id, delta: text }),
        event('response.output_item.done', { output_index: 0, item }),
        event('response.completed', { response: { id, usage } }),
      ]),
    };
  },
  hookContexts(body): HookContexts {
    const input = isRecord(body) ? records(body.input).filter((item) => item.type === 'message') : [];
    const promptAt = input.findLastIndex((item) => item.role === 'user');
    if (promptAt < 0) return { sessionStart: [], prompt: [] };
    const developerRun = (from: number, step: 1 | -1): string[] => {
      const texts: string[] = [];
      for (let index = from; index >= 0 && index < input.length && input[index]?.role === 'developer'; index += step) texts.push(partsText(input[index]?.content));
      return step === -1 ? texts.reverse() : texts;
    };
    return { sessionStart: developerRun(promptAt - 1, -1), prompt: developerRun(promptAt + 1, 1) };
  },
};
