// `Retry-After` is either delay-seconds or an HTTP-date (RFC 9110 §10.2.3).

/** The delay a `Retry-After` value asks for, in milliseconds; `undefined` when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  // Only something that looks like a date, so that Date.parse's leniency does not read "12abc".
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
