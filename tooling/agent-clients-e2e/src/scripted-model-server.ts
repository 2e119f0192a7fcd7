// A scripted model on 127.0.0.1 speaking one client's model API (a WireFormat), so the real CLI runs
// offline. It records every request; a model call is answered by the script, anything else is
// logged and answered 404, so a CLI update that calls something new shows in the run's output
// instead of hanging.
import { serveOnLoopback } from '@graphiti-memory/claude-code-e2e/support';
import { isRecord, type WireFormat } from './wire/wire-format.js';

export interface RecordedModelRequest {
  readonly method: string;
  /** Without the query string. */
  readonly path: string;
  /** Lowercased header names only: values may hold the (dummy) API key. */
  readonly headerNames: readonly string[];
  /** The parsed JSON body; the raw text when it is not JSON; `null` when there is none. */
  readonly body: unknown;
  /** Whether it was a model call of the server's API (answered by the script). */
  readonly modelCall: boolean;
}

/** What the scripted model says to one model call's body. */
export type AnswerScript = (body: Readonly<Record<string, unknown>>) => string;

export interface ScriptedModelServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  readonly format: WireFormat;
  /** Every request so far, oldest first (a live view). */
  readonly requests: readonly RecordedModelRequest[];
  /** The bodies of the model calls among `requests`. */
  modelCalls(from?: number): Array<Readonly<Record<string, unknown>>>;
  close(): Promise<void>;
}

export async function startScriptedModel(format: WireFormat, script: AnswerScript, onUnknown: (request: RecordedModelRequest) => void): Promise<ScriptedModelServer> {
  const requests: RecordedModelRequest[] = [];
  let answers = 0;
  const server = await serveOnLoopback(({ method, url, headerNames, body }, response) => {
    const modelCall = format.isModelCall(method, url.pathname) && isRecord(body);
    const recorded: RecordedModelRequest = { method, path: url.pathname, headerNames, body, modelCall };
    requests.push(recorded);
    if (!modelCall || !isRecord(body)) {
      onUnknown(recorded);
      response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `not scripted: ${method} ${url.pathname}` } }));
      return;
    }
    const answer = format.answer(script(body), ++answers, body);
    response.writeHead(200, { 'content-type': answer.contentType, 'cache-control': 'no-cache' }).end(answer.body);
  });
  return {
    url: server.url,
    format,
    requests,
    modelCalls: (from = 0) => requests.slice(from).flatMap((entry) => (entry.modelCall && isRecord(entry.body) ? [entry.body] : [])),
    close: () => server.close(),
  };
}
