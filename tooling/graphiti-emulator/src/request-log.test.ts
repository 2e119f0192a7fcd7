import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeRequest, RequestLog } from './request-log.js';
import { startEmulator } from './server.js';
import { get, message, send } from './test-support/http.js';
import type { RunningEmulator } from './types.js';

let emulator: RunningEmulator;
beforeEach(async () => {
  emulator = await startEmulator();
});
afterEach(async () => {
  await emulator.close();
});

describe('request log', () => {
  it('records method, path, query, parsed body, status, route and time', async () => {
    const body = { group_id: 'g', messages: [message()] };
    await send(emulator.url, 'POST', '/messages', { json: body });
    await get(emulator.url, '/episodes/g?last_n=3');
    await get(emulator.url, '/unknown');
    const [added, listed, unknown] = emulator.requests;
    expect(added).toMatchObject({ method: 'POST', path: '/messages', query: {}, body, status: 202, route: 'messages', fault: null });
    expect(Date.parse(added?.at ?? '')).not.toBeNaN();
    expect(listed).toMatchObject({ method: 'GET', path: '/episodes/g', query: { last_n: '3' }, body: null, status: 200 });
    expect(unknown).toMatchObject({ path: '/unknown', status: 404, route: null });
  });

  it('keeps the raw text of a body that is not JSON', async () => {
    await send(emulator.url, 'POST', '/search', { rawBody: 'not json' });
    expect(emulator.requests[0]).toMatchObject({ body: 'not json', status: 422 });
  });

  it('records lowercased header names and never their values', async () => {
    const secret = 'sk-test-0123456789abcdef';
    await send(emulator.url, 'GET', '/healthcheck', { headers: { Authorization: `Bearer ${secret}`, 'X-Api-Key': secret } });
    const [entry] = emulator.requests;
    expect(entry?.headerNames).toEqual(expect.arrayContaining(['authorization', 'x-api-key', 'host']));
    expect(entry?.headerNames.every((name) => name === name.toLowerCase())).toBe(true);
    expect(JSON.stringify(emulator.requests)).not.toContain(secret);
  });

  it('clearRequests() empties the log', async () => {
    await get(emulator.url, '/healthcheck');
    emulator.clearRequests();
    expect(emulator.requests).toEqual([]);
    await get(emulator.url, '/healthcheck');
    expect(emulator.requests).toHaveLength(1);
  });

  it('keeps the newest requests up to its limit, trimming the oldest in place', () => {
    const log = new RequestLog(20);
    const live = log.entries;
    for (let index = 0; index < 45; index++) log.record(describeRequest('GET', `/r/${index}`, {}, '', null), 200, null);
    expect(live).toBe(log.entries);
    expect(live.length).toBeLessThanOrEqual(20);
    expect(live.at(-1)?.path).toBe('/r/44');
    const paths = live.map((entry) => Number(entry.path.slice(3)));
    expect(paths).toEqual(paths.map((_, offset) => 45 - paths.length + offset));
  });

  it('logs a body the caller already parsed as that very value, without parsing it again', () => {
    const json = { id: 1 };
    expect(describeRequest('POST', '/mcp/', {}, '{"id":1}', 'mcp', { json }).body).toBe(json);
  });
});
