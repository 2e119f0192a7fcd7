// The system or undici code of a failed exchange, wherever undici put it: both clients (REST, and MCP
// through the same dispatcher) classify connection failures by it.

/**
 * The first `code` on the error, its causes, or the first of an AggregateError's errors (dual-stack
 * connects). undici's HTTPParserError (a server that does not speak HTTP) may carry none: it reads
 * as `HPE_INVALID_RESPONSE`, so every `HPE_*` code means "answered, but not in HTTP".
 */
export function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
    if ((current as { name?: unknown }).name === 'HTTPParserError') return 'HPE_INVALID_RESPONSE';
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.length > 0) {
      const nested = errorCode(errors[0]);
      if (nested !== undefined) return nested;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
