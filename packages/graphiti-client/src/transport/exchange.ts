// One HTTP exchange through an undici dispatcher, collecting the whole body as text. It uses
// `dispatch` with a small handler rather than `undici.request`: no body stream per response, which
// is a third less CPU per call (see src/bench), and the abort is ours to settle: when `signal`
// fires the promise rejects at once, even if undici has not started the request yet (queued
// behind a slow connect). A body past `maxBodyBytes` is not kept: the exchange aborts and rejects.
import type { Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';

export interface ExchangeRequest {
  /** `http://host:port`. */
  readonly origin: string;
  /** Path and query, e.g. `/prefix/episodes/g?last_n=5`. */
  readonly path: string;
  readonly method: Dispatcher.HttpMethod;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | null;
  /** undici's own header and body timers (coarse: about one-second steps). */
  readonly timeoutMs: number;
  /** Largest body kept, in bytes: past it the exchange stops reading and rejects with ResponseTooLarge. */
  readonly maxBodyBytes: number;
}

/** The exchange stopped reading at `limitBytes`; request.ts and the MCP face map it to GraphitiResponseTooLargeError. */
export class ResponseTooLarge extends Error {
  override readonly name = 'ResponseTooLarge';

  constructor(readonly limitBytes: number) {
    super(`the answer was larger than ${limitBytes} bytes`);
  }
}

/** The ResponseTooLarge in `error` or its causes (the MCP SDK may wrap what its fetch threw). */
export function responseTooLargeIn(error: unknown): ResponseTooLarge | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    if (current instanceof ResponseTooLarge) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export interface ExchangeResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly rawBody: string;
}

/** Rejects with `signal.reason` on abort, or with undici's error (refused, reset, its timeouts). */
export function exchange(dispatcher: Dispatcher, request: ExchangeRequest, signal: AbortSignal): Promise<ExchangeResponse> {
  return new Promise<ExchangeResponse>((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let settled = false;
    let status = 0;
    let headers: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    let received = 0;
    const tooLarge = (): void => {
      const error = new ResponseTooLarge(request.maxBodyBytes);
      chunks.length = 0;
      fail(error);
      controller?.abort(error);
    };

    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      return true;
    };
    const fail = (error: unknown): void => {
      if (settle()) reject(error);
    };
    function onAbort(): void {
      fail(signal.reason);
      controller?.abort(signal.reason as Error);
    }
    signal.addEventListener('abort', onAbort, { once: true });

    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(started) {
        controller = started;
        if (signal.aborted) started.abort(signal.reason as Error);
      },
      onResponseStart(_controller, statusCode, responseHeaders) {
        // 1xx informational answers come before the real one.
        if (statusCode < 200) return;
        status = statusCode;
        headers = responseHeaders;
        // A declared length over the cap is refused before its first byte.
        const declared = Number(responseHeaders['content-length']);
        if (Number.isFinite(declared) && declared > request.maxBodyBytes) tooLarge();
      },
      onResponseData(_controller, chunk) {
        if (settled) return;
        received += chunk.length;
        if (received > request.maxBodyBytes) {
          tooLarge();
          return;
        }
        chunks.push(chunk);
      },
      onResponseEnd() {
        if (settle()) resolve({ status, headers, rawBody: Buffer.concat(chunks).toString('utf8') });
      },
      onResponseError(_controller, error) {
        fail(error);
      },
    };

    try {
      dispatcher.dispatch(
        {
          origin: request.origin,
          path: request.path,
          method: request.method,
          headers: request.headers,
          body: request.body,
          headersTimeout: request.timeoutMs,
          bodyTimeout: request.timeoutMs,
        },
        handler,
      );
    } catch (error) {
      fail(error);
    }
  });
}
