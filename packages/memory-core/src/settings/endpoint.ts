// The endpoint is the identity consent is given for, so it is normalised in one place: two
// spellings of the same server (`HTTP://Host:80/`, `http://host`) must compare equal, and a
// changed endpoint must not.

/** The endpoint used when none is configured: a Graphiti server on this machine. */
export const DEFAULT_ENDPOINT = 'http://localhost:8000';

/**
 * `scheme://host[:port][/path]` with the scheme and host lower-cased, the default port and trailing
 * slashes removed. `undefined` when `url` is not an absolute http(s) URL, or carries a user name,
 * password, query or fragment (none of which an endpoint may have).
 */
export function normaliseEndpoint(url: string): string | undefined {
  if (typeof url !== 'string') return undefined;
  const problem = endpointProblem(url);
  if (problem !== undefined) return undefined;
  const parsed = new URL(url.trim());
  const path = parsed.pathname.replace(/\/+$/, '');
  return `${parsed.protocol}//${parsed.host}${path}`;
}

/** Why `url` is not a usable endpoint, or `undefined` when it is. */
export function endpointProblem(url: string): string | undefined {
  const trimmed = url.trim();
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return 'must be an http(s) URL such as http://localhost:8000';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return 'must be an http(s) URL such as http://localhost:8000';
  }
  if (parsed.hostname === '') return 'must name a host, such as http://localhost:8000';
  if (parsed.username !== '' || parsed.password !== '') {
    return 'must not contain a user name or password; store the API key with "Graphiti Memory: Set API Key"';
  }
  if (parsed.search !== '' || parsed.hash !== '' || trimmed.includes('?') || trimmed.includes('#')) {
    return 'must not have a query or fragment';
  }
  return undefined;
}
