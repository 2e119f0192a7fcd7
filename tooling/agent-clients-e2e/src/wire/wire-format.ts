// What one model API looks like to the scripted model server: which requests are model turns, how
// an answer is streamed, and where a client puts its hooks' context in a request. One module per
// API (responses-api.ts, gemini-api.ts, chat-completions-api.ts), each tested on request bodies the
// real clients sent.

/** The text each hook put into one model request, by where the client placed it. */
export interface HookContexts {
  /** What the session-start hook added (the brief). */
  readonly sessionStart: readonly string[];
  /** What the prompt hook added (the recall). */
  readonly prompt: readonly string[];
}

export interface StreamedAnswer {
  readonly contentType: string;
  readonly body: string;
}

export interface WireFormat {
  /** For messages: `OpenAI Responses API`. */
  readonly name: string;
  /** Whether `method` + `pathname` is one model turn of this API. */
  isModelCall(method: string, pathname: string): boolean;
  /** The streamed answer `text` to a model call (`sequence` numbers answers for ids). */
  answer(text: string, sequence: number, body: Readonly<Record<string, unknown>>): StreamedAnswer;
  /** Where the client put hook output in one model call's body. */
  hookContexts(body: unknown): HookContexts;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export const records = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.filter(isRecord) : []);

/** The text of a content that is a string or a list of parts with `text` (both APIs of OpenAI). */
export function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  return records(content)
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .join('');
}

/** Server-sent events as `data:` lines (with `event:` lines when named). */
export function serverSentEvents(events: ReadonlyArray<{ readonly event?: string; readonly data: unknown }>): string {
  return events.map(({ event, data }) => `${event === undefined ? '' : `event: ${event}\n`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`).join('');
}
