// Small fetch helpers for the emulator's own tests: real loopback HTTP, nothing mocked.

export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body parsed as JSON (throws when it is not JSON, which a test should notice). */
  readonly body: unknown;
}

export async function send(
  baseUrl: string,
  method: string,
  path: string,
  options: { json?: unknown; rawBody?: string; headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.rawBody !== undefined) {
    headers['content-type'] = 'application/json';
    body = options.rawBody;
  }
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    redirect: 'manual',
    ...(body === undefined ? {} : { body }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
}

export const post = (baseUrl: string, path: string, json?: unknown) =>
  send(baseUrl, 'POST', path, json === undefined ? {} : { json });

export const get = (baseUrl: string, path: string, signal?: AbortSignal) =>
  send(baseUrl, 'GET', path, signal === undefined ? {} : { signal });

export const remove = (baseUrl: string, path: string) => send(baseUrl, 'DELETE', path);

/** A valid message; override what a test is about. */
export function message(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { content: 'Alice likes tea.', role_type: 'user', role: 'alice', ...overrides };
}
