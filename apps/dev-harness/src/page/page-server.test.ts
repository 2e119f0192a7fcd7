// The memory page is safe by construction (issue 32 item 2), proven over plain HTTP: loopback only;
// no token, a wrong token, a foreign Host (DNS rebinding) or a cross-site Origin on a write are
// refused before any memory service is reached; the token becomes an HttpOnly, SameSite=Strict
// cookie; answers carry a strict CSP and never a CORS header. The open loops' Done / Drop routes are
// behind the same guard.
import http from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryPageApi } from './page-api.js';
import { tokenCookieName } from './page-guard.js';
import { pageAssetsFolder, startPageServer, type RunningPageServer } from './page-server.js';

interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/** A request with exactly these headers (fetch would not let a test set Host). */
function send(port: number, options: { method?: string; path?: string; headers?: Record<string, string>; body?: string }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path ?? '/', headers: options.headers ?? {}, setHost: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    request.on('error', reject);
    request.end(options.body);
  });
}

let server: RunningPageServer;
const calls: string[] = [];

beforeEach(async () => {
  calls.length = 0;
  const api = {
    overview: async () => {
      calls.push('overview');
      return { memories: [] };
    },
    forget: async () => {
      calls.push('forget');
      return { done: 'forgot' };
    },
    closeLoop: async (body: Record<string, unknown>, status: string) => {
      calls.push(`loop ${status} ${String(body['id'])}`);
      return { done: status };
    },
  } as unknown as MemoryPageApi;
  server = await startPageServer({ api, port: 0, assets: await pageAssetsFolder() });
});

afterEach(() => server.close());

describe('the memory page server', () => {
  it('turns the printed token into an HttpOnly, SameSite=Strict cookie and takes it off the address', async () => {
    const host = `127.0.0.1:${server.port}`;
    expect(server.url).toBe(`http://${host}/?token=${server.token}`);
    const first = await send(server.port, { path: `/?token=${server.token}`, headers: { host } });
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toContain(`${tokenCookieName(server.port)}=${server.token}`);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');

    const page = await send(server.port, { headers: { host, cookie: `${tokenCookieName(server.port)}=${server.token}` } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<script src="/memory-page.js" defer></script>');
    // Scripts from this origin only, no inline script, nothing from outside, no CORS.
    expect(page.headers['content-security-policy']).toContain("default-src 'none'; script-src 'self'");
    expect(page.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
    expect(page.body).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
    const api = await send(server.port, { path: '/api/overview?scope=workspace', headers: { host: `localhost:${server.port}`, cookie: `${tokenCookieName(server.port)}=${server.token}` } });
    expect(api.status).toBe(200);
    expect(calls).toEqual(['overview']);
  });

  it('refuses a request without the token, with a wrong one, or with the token in the address of anything but the page', async () => {
    const host = `127.0.0.1:${server.port}`;
    expect((await send(server.port, { path: '/api/overview', headers: { host } })).status).toBe(403);
    expect((await send(server.port, { path: '/', headers: { host } })).status).toBe(403);
    expect((await send(server.port, { path: '/api/overview', headers: { host, cookie: `${tokenCookieName(server.port)}=${server.token.slice(1)}x` } })).status).toBe(403);
    expect((await send(server.port, { path: `/?token=${server.token}x`, headers: { host } })).status).toBe(403);
    expect((await send(server.port, { path: `/api/overview?token=${server.token}`, headers: { host } })).status).toBe(403);
    // Another port's cookie (another page, another run) is not this one's.
    expect((await send(server.port, { path: '/api/overview', headers: { host, cookie: `${tokenCookieName(server.port + 1)}=${server.token}` } })).status).toBe(403);
    expect(calls).toEqual([]);
  });

  it('refuses a foreign Host (DNS rebinding), even with the right token', async () => {
    const cookie = `${tokenCookieName(server.port)}=${server.token}`;
    for (const host of [`attacker.example:${server.port}`, `127.0.0.1:${server.port + 1}`, '127.0.0.1', `192.168.1.2:${server.port}`]) {
      const answer = await send(server.port, { path: '/api/overview', headers: { host, cookie } });
      expect(answer.status, host).toBe(421);
    }
    expect((await send(server.port, { path: `/?token=${server.token}`, headers: { host: `evil.test:${server.port}` } })).status).toBe(421);
    expect(calls).toEqual([]);
  });

  it('refuses a write from another origin, without an Origin, or not as JSON; a same-origin write goes through', async () => {
    const host = `127.0.0.1:${server.port}`;
    const cookie = `${tokenCookieName(server.port)}=${server.token}`;
    const write = (headers: Record<string, string>) =>
      send(server.port, { method: 'POST', path: '/api/forget', headers: { host, cookie, 'content-type': 'application/json', ...headers }, body: JSON.stringify({ what: 'scope', scope: 'workspace' }) });
    expect((await write({ origin: 'https://attacker.example' })).status).toBe(403);
    expect((await write({ origin: `http://localhost:${server.port}` })).status).toBe(403);
    expect((await write({ origin: 'null' })).status).toBe(403);
    expect((await write({})).status).toBe(403);
    expect((await write({ origin: `http://${host}`, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect(calls).toEqual([]);
    const form = await send(server.port, { method: 'POST', path: '/api/forget', headers: { host, cookie, origin: `http://${host}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'what=scope' });
    expect(form.status).toBe(415);
    expect(calls).toEqual([]);
    const same = await write({ origin: `http://${host}`, 'sec-fetch-site': 'same-origin' });
    expect(same.status).toBe(200);
    expect(same.headers['access-control-allow-origin']).toBeUndefined();
    expect(calls).toEqual(['forget']);
  });

  it("closes or drops a loop through /api/loops/done and /api/loops/drop, behind the token, Host and Origin checks", async () => {
    const host = `127.0.0.1:${server.port}`;
    const cookie = `${tokenCookieName(server.port)}=${server.token}`;
    const close = (path: string, headers: Record<string, string>) =>
      send(server.port, { method: 'POST', path, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ id: '3f2a9c01b7de' }) });
    // No token, a foreign Host, another origin, no Origin: refused before the API is reached.
    expect((await close('/api/loops/done', { host, origin: `http://${host}` })).status).toBe(403);
    expect((await close('/api/loops/done', { host: `attacker.example:${server.port}`, cookie, origin: `http://attacker.example:${server.port}` })).status).toBe(421);
    expect((await close('/api/loops/drop', { host, cookie, origin: 'https://attacker.example' })).status).toBe(403);
    expect((await close('/api/loops/drop', { host, cookie })).status).toBe(403);
    // Reading is not closing: a GET of the route changes nothing.
    expect((await send(server.port, { path: '/api/loops/done', headers: { host, cookie } })).status).toBe(404);
    expect(calls).toEqual([]);
    const done = await close('/api/loops/done', { host, cookie, origin: `http://${host}` });
    expect(done.status).toBe(200);
    expect(JSON.parse(done.body)).toEqual({ done: 'done' });
    expect((await close('/api/loops/drop', { host, cookie, origin: `http://${host}` })).status).toBe(200);
    expect(calls).toEqual(['loop done 3f2a9c01b7de', 'loop dropped 3f2a9c01b7de']);
  });

  it('listens on 127.0.0.1 only', async () => {
    const other = await new Promise<boolean>((resolve) => {
      const request = http.request({ host: '::1', port: server.port, path: '/', family: 6 }, () => resolve(true));
      request.on('error', () => resolve(false));
      request.end();
    });
    expect(other).toBe(false);
  });
});
