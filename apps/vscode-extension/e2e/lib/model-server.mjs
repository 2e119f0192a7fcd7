// A scripted model that speaks just enough of Ollama's API for Copilot Chat's bring-your-own-key
// Ollama provider (read from Copilot 0.67's bundle: GET /api/version, GET /api/tags, POST
// /api/show, then OpenAI-style streaming from POST /v1/chat/completions). It lets Copilot's real
// agent loop run offline and signed out, and records every request body, so a test can assert what
// the model received. Loopback only.
import http from 'node:http';

/** The lowest version Copilot's Ollama provider accepts is 0.6.4; answer a newer one. */
const OLLAMA_VERSION = '0.12.6';
const CONTEXT_LENGTH = 128_000;

/** The text every scripted answer starts with, so a test can find the answer in the chat view. */
export const SCRIPTED_ANSWER_PREFIX = 'Scripted agent answer:';

/**
 * The default script: in an agent request (it offers tools) whose current turn has no tool result
 * yet, call `read_file` on `toolFile` once (one tool round); otherwise answer with text. Requests
 * without tools (titles, summaries) get a short text.
 * @param {{ toolFile?: string }} options
 * @returns {(body: any) => { toolCall?: { name: string, arguments: object }, text?: string }}
 */
export function agentScript({ toolFile } = {}) {
  return (body) => {
    const messages = Array.isArray(body?.messages) ? body.messages : [];
    const tools = Array.isArray(body?.tools) ? body.tools.map((tool) => tool?.function?.name) : [];
    const lastUser = messages.findLastIndex((message) => message?.role === 'user');
    const toolRoundDone = messages.slice(lastUser + 1).some((message) => message?.role === 'tool');
    if (toolFile && tools.includes('read_file') && !toolRoundDone) {
      return { toolCall: { name: 'read_file', arguments: { filePath: toolFile, startLine: 1, endLine: 20 } } };
    }
    if (tools.length === 0) return { text: 'Scripted title' };
    return { text: `${SCRIPTED_ANSWER_PREFIX} the billing API is deployed as memory says.${toolRoundDone ? ' (after one tool round)' : ''}` };
  };
}

/**
 * @param {{ name?: string, script?: ReturnType<typeof agentScript> }} options
 * @returns {Promise<{ url: string, model: string, requests: Array<{ path: string, body: any }>, chatRequests: () => any[], clear: () => void, close: () => Promise<void> }>}
 */
export async function startModelServer({ name = 'scripted-agent', script = agentScript() } = {}) {
  const model = `${name}:latest`;
  /** Every request, oldest first: path and parsed body (chat completion bodies as the model got them). */
  const requests = [];
  let sequence = 0;

  const routes = {
    'GET /api/version': () => ({ version: OLLAMA_VERSION }),
    'GET /api/tags': () => ({
      models: [{ name: model, model, modified_at: new Date(0).toISOString(), size: 1, digest: 'e2e', details: { family: 'scripted', parameter_size: '1B' } }],
    }),
    'POST /api/show': () => ({
      capabilities: ['completion', 'tools'],
      model_info: { 'general.architecture': 'scripted', 'general.basename': name, 'scripted.context_length': CONTEXT_LENGTH },
      details: { family: 'scripted' },
    }),
  };

  const server = http.createServer(async (request, response) => {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const raw = Buffer.concat(chunks).toString('utf8');
    const pathname = new URL(request.url ?? '/', 'http://x').pathname;
    let body;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = raw;
    }
    requests.push({ method: request.method, path: pathname, body });
    try {
      if (request.method === 'POST' && pathname === '/v1/chat/completions') {
        streamCompletion(response, script(body), body, ++sequence);
        return;
      }
      const route = routes[`${request.method} ${pathname}`];
      if (!route) {
        response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `scripted model: no route ${request.method} ${pathname}` }));
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(route(body)));
    } catch (error) {
      response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: String(error?.message ?? error) }));
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}`,
    model,
    requests,
    chatRequests: () => requests.filter((entry) => entry.path === '/v1/chat/completions').map((entry) => entry.body),
    clear: () => requests.splice(0),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Streams one answer in OpenAI's chat.completion.chunk SSE format. */
function streamCompletion(response, answer, body, sequence) {
  const id = `chatcmpl-e2e-${sequence}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta, finishReason = null, extra = {}) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body?.model ?? 'scripted', choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`;
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  response.write(chunk({ role: 'assistant', content: '' }));
  let finishReason = 'stop';
  if (answer.toolCall) {
    finishReason = 'tool_calls';
    response.write(
      chunk({
        tool_calls: [{ index: 0, id: `call_e2e_${sequence}`, type: 'function', function: { name: answer.toolCall.name, arguments: JSON.stringify(answer.toolCall.arguments) } }],
      }),
    );
  } else {
    // Two pieces, so the answer really streams.
    const text = answer.text ?? '';
    const middle = Math.ceil(text.length / 2);
    response.write(chunk({ content: text.slice(0, middle) }));
    response.write(chunk({ content: text.slice(middle) }));
  }
  response.write(chunk({}, finishReason, { usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 } }));
  response.end('data: [DONE]\n\n');
}
