/**
 * What a failed Graphiti call means for the messages it carried. Read structurally (`kind`,
 * `status`, `retryable`, `retryAfterMs`) because memory-core may only `import type` the client.
 */
import { classifyGraphitiError } from '../errors/graphiti-failure.js';

export type FailureDisposition =
  /** Not accepted; sending again may succeed. */
  | 'retry'
  /** Not accepted and never will be (422, a refused group id): dead-letter with the reason. */
  | 'dead-letter'
  /** The request may have reached the server (timeout, reset, abort mid-request): confirm, then decide. */
  | 'unknown-outcome'
  /** A 2xx whose body was not Graphiti's: the server took the request. */
  | 'accepted';

export interface DeliveryFailure {
  readonly disposition: FailureDisposition;
  /** The error's class name (`GraphitiServerError`): content-free, for status and telemetry. */
  readonly errorClass: string;
  /** Content-free reason (`HTTP 422 (validation)`): never a body, which may echo message content. */
  readonly reason: string;
  readonly status?: number;
  readonly retryAfterMs?: number;
}

/** Codes of connection failures that happen before a request could reach the server. */
const NOT_CONNECTED_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
]);

export function classifyFailure(error: unknown): DeliveryFailure {
  const fields = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  const errorClass =
    typeof fields['name'] === 'string' && fields['name'] !== '' ? fields['name'] : 'UnknownError';
  const kind = typeof fields['kind'] === 'string' ? fields['kind'] : undefined;
  const status = typeof fields['status'] === 'number' ? fields['status'] : undefined;
  const retryAfterMs = typeof fields['retryAfterMs'] === 'number' ? fields['retryAfterMs'] : undefined;
  const withStatus = (disposition: FailureDisposition, reason: string): DeliveryFailure => ({
    disposition,
    errorClass,
    reason,
    ...(status === undefined ? {} : { status }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });

  if (kind === 'usage') return withStatus('dead-letter', 'refused by the client before sending (usage)');
  if (kind === 'abort') return withStatus('unknown-outcome', 'aborted');
  if (kind === 'timeout') return withStatus('unknown-outcome', 'timed out');
  // The server answered, but more than the client reads: it may have taken the request.
  if (kind === 'response-too-large') return withStatus('unknown-outcome', 'answer too large');
  if (kind === 'connection') {
    const code = classifyGraphitiError(error).code;
    return code !== undefined && NOT_CONNECTED_CODES.has(code)
      ? withStatus('retry', `not connected (${code})`)
      : withStatus('unknown-outcome', `connection lost${code === undefined ? '' : ` (${code})`}`);
  }
  if (kind === 'response-validation') {
    return status !== undefined && status >= 200 && status < 300
      ? withStatus('accepted', `HTTP ${status} with an unexpected body`)
      : withStatus('retry', 'unexpected response');
  }
  if (status !== undefined) {
    const label = kind === undefined ? '' : ` (${kind})`;
    if (status === 408 || status === 409 || status === 429 || status >= 500) {
      return withStatus('retry', `HTTP ${status}${label}`);
    }
    return withStatus('dead-letter', `HTTP ${status}${label}`);
  }
  // Anything else (a bug in a fake, an unknown transport): keep the messages and try again later.
  if (fields['retryable'] === false) return withStatus('dead-letter', 'not retryable');
  return withStatus('retry', 'unexpected failure');
}
