// One reading of a failed Graphiti call, for every layer that needs one: ingestion's delivery
// decisions, recall's outcome and both apps' messages. Structural (`name`, `kind`, `status`,
// `code`, `retryAfterMs`, `retryable`): memory-core may only `import type` the client, and two
// installed copies of the client must still agree. The client puts the socket code on its
// connection error, so nothing here walks a cause chain.

export type GraphitiFailureKind =
  | 'connection'
  | 'timeout'
  | 'abort'
  | 'usage'
  | 'response-validation'
  | 'rate-limit'
  | 'server'
  | 'not-found'
  | 'validation'
  | 'api'
  /** Not an error of the client (a bug, a foreign transport). */
  | 'unknown';

const CLIENT_KINDS: ReadonlySet<string> = new Set<GraphitiFailureKind>([
  'connection',
  'timeout',
  'abort',
  'usage',
  'response-validation',
  'rate-limit',
  'server',
  'not-found',
  'validation',
  'api',
]);

export interface GraphitiFailure {
  readonly kind: GraphitiFailureKind;
  /** The error's class name (`GraphitiServerError`), never its message: content-free. */
  readonly errorClass: string;
  readonly status?: number;
  /** `ECONNREFUSED`, `UND_ERR_SOCKET`…: what a connection failure was. */
  readonly code?: string;
  readonly retryAfterMs?: number;
  readonly retryable?: boolean;
}

export function classifyGraphitiError(error: unknown): GraphitiFailure {
  const fields = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  const kind = typeof fields['kind'] === 'string' && CLIENT_KINDS.has(fields['kind']) ? (fields['kind'] as GraphitiFailureKind) : 'unknown';
  const status = typeof fields['status'] === 'number' ? fields['status'] : undefined;
  const code = typeof fields['code'] === 'string' && fields['code'] !== '' ? fields['code'] : undefined;
  const retryAfterMs = typeof fields['retryAfterMs'] === 'number' ? fields['retryAfterMs'] : undefined;
  const retryable = typeof fields['retryable'] === 'boolean' ? fields['retryable'] : undefined;
  return {
    kind,
    errorClass: errorClassOf(error),
    ...(status === undefined ? {} : { status }),
    ...(code === undefined ? {} : { code }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(retryable === undefined ? {} : { retryable }),
  };
}

/** A system error's code (`ENOENT`, `ECONNRESET`): it says more than the plain `Error` it comes in. */
const SYSTEM_ERROR_CODE = /^E[A-Z0-9_]+$/;

/**
 * What a thrown value is, for logs and telemetry, never its message: its class name (`TypeError`,
 * `GraphitiTimeoutError`), a plain Error's system code (`ENOENT`), else `Error` or `UnknownError`.
 */
export function errorClassOf(error: unknown): string {
  if (error !== null && typeof error === 'object') {
    const name = (error as { name?: unknown }).name;
    if (typeof name === 'string' && name !== '' && name !== 'Error') return name;
    const constructorName = (error as { constructor?: { name?: unknown } }).constructor?.name;
    if (typeof constructorName === 'string' && constructorName !== '' && constructorName !== 'Object' && constructorName !== 'Error') return constructorName;
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && SYSTEM_ERROR_CODE.test(code)) return code;
    if (name === 'Error' || constructorName === 'Error') return 'Error';
  }
  return 'UnknownError';
}
