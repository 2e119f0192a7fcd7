// Who may talk to the memory page: the browser of the user who started it, and nothing else. Every
// request must name this server as its Host (127.0.0.1 or localhost with the right port: a page
// rebinding a DNS name to 127.0.0.1 still sends its own name, so it is refused), carry the per-run
// token (the `?token=` of the URL printed on start, once; then an HttpOnly, SameSite=Strict cookie),
// and, when it writes, come from this very origin (`Origin`, and `Sec-Fetch-Site` when the browser
// sends it). There are no CORS headers anywhere, so no other origin can read an answer either.
import { timingSafeEqual } from 'node:crypto';

export interface PageRequest {
  readonly method: string;
  /** The path and query, as the request line gave it. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

export type PageVerdict =
  | { readonly allowed: true; readonly setCookie?: string; readonly redirectTo?: string }
  | { readonly allowed: false; readonly status: 400 | 403 | 405 | 421; readonly reason: string };

export interface PageGuardOptions {
  readonly port: number;
  readonly token: string;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const READ_METHODS = new Set(['GET', 'HEAD']);

/** The cookie's name: per port, since browsers share cookies between the ports of one host. */
export function tokenCookieName(port: number): string {
  return `graphiti_memory_page_${port}`;
}

export class PageGuard {
  private readonly hosts: ReadonlySet<string>;
  private readonly origins: ReadonlySet<string>;

  constructor(private readonly options: PageGuardOptions) {
    this.hosts = new Set([`127.0.0.1:${options.port}`, `localhost:${options.port}`]);
    this.origins = new Set([...this.hosts].map((host) => `http://${host}`));
  }

  check(request: PageRequest): PageVerdict {
    const host = single(request.headers['host'])?.toLowerCase();
    if (host === undefined || !this.hosts.has(host)) return { allowed: false, status: 421, reason: 'this page answers only to 127.0.0.1 or localhost on its own port' };
    const method = request.method.toUpperCase();
    if (!READ_METHODS.has(method) && !WRITE_METHODS.has(method)) return { allowed: false, status: 405, reason: `${method} is not served here` };
    const url = new URL(request.url, `http://${host}`);
    const fromQuery = url.searchParams.get('token');
    if (fromQuery !== null) {
      // Only the page itself is opened with the token: it becomes the cookie, and the address loses it.
      if (method !== 'GET' || url.pathname !== '/' || !this.matches(fromQuery)) return { allowed: false, status: 403, reason: 'the token is wrong: open the address graphiti-harness ui printed' };
      return { allowed: true, setCookie: this.cookie(), redirectTo: '/' };
    }
    if (!this.matches(cookieValue(single(request.headers['cookie']), tokenCookieName(this.options.port)))) {
      return { allowed: false, status: 403, reason: 'no valid token: open the address graphiti-harness ui printed (it holds the token)' };
    }
    if (WRITE_METHODS.has(method)) {
      const origin = single(request.headers['origin']);
      // A host's own name for itself is the only origin that writes (127.0.0.1 and localhost alike).
      if (origin === undefined || !this.origins.has(origin.toLowerCase()) || origin.toLowerCase() !== `http://${host}`) {
        return { allowed: false, status: 403, reason: 'a change must come from this page itself (same Origin)' };
      }
      const site = single(request.headers['sec-fetch-site']);
      if (site !== undefined && site !== 'same-origin') return { allowed: false, status: 403, reason: 'a change must come from this page itself (Sec-Fetch-Site)' };
    }
    return { allowed: true };
  }

  /** `Set-Cookie` for the token: never readable by script, never sent by another site. */
  cookie(): string {
    return `${tokenCookieName(this.options.port)}=${this.options.token}; HttpOnly; SameSite=Strict; Path=/`;
  }

  private matches(candidate: string | undefined): boolean {
    if (candidate === undefined) return false;
    const given = Buffer.from(candidate);
    const expected = Buffer.from(this.options.token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator > 0 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}
