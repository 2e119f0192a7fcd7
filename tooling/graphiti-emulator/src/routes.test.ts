import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator } from './server.js';
import { get, message, post, remove, send } from './test-support/http.js';
import type { EpisodeRecord, FactRecord, RunningEmulator } from './types.js';

const PYTHON_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?\+00:00$/;

let emulator: RunningEmulator;
beforeEach(async () => {
  emulator = await startEmulator({ processingDelayMs: 1 });
});
afterEach(async () => {
  await emulator.close();
});

async function addAndProcess(groupId: string, messages: Record<string, unknown>[]): Promise<void> {
  const reply = await post(emulator.url, '/messages', { group_id: groupId, messages });
  expect(reply.status).toBe(202);
  await emulator.idle();
}

describe('routes', () => {
  it('binds 127.0.0.1 on a free port', () => {
    expect(emulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(emulator.port).toBeGreaterThan(0);
  });

  it('GET /healthcheck answers healthy', async () => {
    const reply = await get(emulator.url, '/healthcheck');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: 'healthy' });
  });

  it('POST /messages answers 202 with the Result body and stores episodes after processing', async () => {
    const reply = await post(emulator.url, '/messages', {
      group_id: 'group-1',
      messages: [message({ name: 'turn.1.user', source_description: 'chat', timestamp: '2025-06-08T11:58:10.431Z' })],
    });
    expect(reply.status).toBe(202);
    expect(reply.text).toBe('{"message":"Messages added to processing queue","success":true}');
    await emulator.idle();
    const episodes = (await get(emulator.url, '/episodes/group-1?last_n=10')).body as EpisodeRecord[];
    expect(episodes).toHaveLength(1);
    const [episode] = episodes;
    expect(episode).toMatchObject({
      name: 'turn.1.user',
      group_id: 'group-1',
      labels: [],
      source: 'message',
      source_description: 'chat',
      content: 'alice(user): Alice likes tea.',
      valid_at: '2025-06-08T11:58:10.431000+00:00',
    });
    expect(episode?.created_at).toMatch(PYTHON_ISO);
    expect(episode?.entity_edges).toHaveLength(1);
  });

  it('writes an empty role for role null and defaults valid_at to now', async () => {
    const before = Date.now();
    await addAndProcess('g', [message({ role: null, role_type: 'assistant', content: 'Done.' })]);
    const [episode] = (await get(emulator.url, '/episodes/g?last_n=1')).body as EpisodeRecord[];
    expect(episode?.content).toBe('(assistant): Done.');
    expect(episode?.name).toBe('');
    expect(Date.parse(episode?.valid_at ?? '')).toBeGreaterThanOrEqual(before - 1);
  });

  it('POST /entity-node answers 201 with the node', async () => {
    const reply = await post(emulator.url, '/entity-node', { uuid: 'node-1', group_id: 'g', name: 'Alice' });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ uuid: 'node-1', name: 'Alice', group_id: 'g', summary: '', attributes: {} });
    const node = reply.body as { name_embedding: number[]; labels: string[]; created_at: string };
    expect(node.name_embedding.length).toBeGreaterThan(0);
    expect(Array.isArray(node.labels)).toBe(true);
    expect(node.created_at).toMatch(PYTHON_ISO);
  });

  it('GET and DELETE /entity-edge/{uuid} find, delete and then 404', async () => {
    await addAndProcess('g', [message({ content: 'Alice likes tea.' })]);
    const [fact] = emulator.state.facts('g');
    const uuid = fact?.uuid ?? '';
    const found = await get(emulator.url, `/entity-edge/${uuid}`);
    expect(found.status).toBe(200);
    expect((found.body as FactRecord).fact).toBe('Alice likes tea');
    const deleted = await remove(emulator.url, `/entity-edge/${uuid}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ message: 'Entity Edge deleted', success: true });
    const missing = await get(emulator.url, `/entity-edge/${uuid}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: `edge ${uuid} not found` });
    expect((await remove(emulator.url, `/entity-edge/${uuid}`)).body).toEqual({ detail: `edge ${uuid} not found` });
  });

  it('DELETE /episode/{uuid} removes only the episode; facts stay', async () => {
    await addAndProcess('g', [message()]);
    const [episode] = emulator.state.episodes('g');
    const uuid = episode?.uuid ?? '';
    const deleted = await remove(emulator.url, `/episode/${uuid}`);
    expect(deleted.body).toEqual({ message: 'Episode deleted', success: true });
    expect(emulator.state.episodes('g')).toEqual([]);
    expect(emulator.state.facts('g')).toHaveLength(1);
    const again = await remove(emulator.url, `/episode/${uuid}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ detail: `node ${uuid} not found` });
  });

  it('DELETE /group/{id} removes that group only and never 404s', async () => {
    await addAndProcess('keep', [message()]);
    await addAndProcess('drop', [message()]);
    const deleted = await remove(emulator.url, '/group/drop');
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ message: 'Group deleted', success: true });
    expect(emulator.state.episodes('drop')).toEqual([]);
    expect(emulator.state.facts('drop')).toEqual([]);
    expect(emulator.state.episodes('keep')).toHaveLength(1);
    expect((await remove(emulator.url, '/group/never-existed')).status).toBe(200);
  });

  it('POST /clear wipes every group', async () => {
    await addAndProcess('a', [message()]);
    await addAndProcess('b', [message()]);
    const cleared = await post(emulator.url, '/clear');
    expect(cleared.status).toBe(200);
    expect(cleared.body).toEqual({ message: 'Graph cleared', success: true });
    expect(emulator.state.episodes()).toEqual([]);
    expect(emulator.state.facts()).toEqual([]);
  });

  it('POST /search and /get-memory answer {facts}', async () => {
    await addAndProcess('g', [message({ content: 'Alice likes green tea.' })]);
    const searched = await post(emulator.url, '/search', { group_ids: ['g'], query: 'tea', max_facts: 5 });
    expect(searched.status).toBe(200);
    expect((searched.body as { facts: FactRecord[] }).facts.map((fact) => fact.fact)).toEqual(['Alice likes green tea']);
    const memory = await post(emulator.url, '/get-memory', {
      group_id: 'g',
      center_node_uuid: null,
      messages: [message({ content: 'what tea?' })],
    });
    expect(memory.status).toBe(200);
    expect((memory.body as { facts: FactRecord[] }).facts).toHaveLength(1);
  });

  it('answers FastAPI 404 for unknown routes, 405 for a wrong method, 307 for a trailing slash', async () => {
    const unknown = await get(emulator.url, '/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'Not Found' });
    const wrongMethod = await get(emulator.url, '/messages');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body).toEqual({ detail: 'Method Not Allowed' });
    const slash = await send(emulator.url, 'GET', '/episodes/g/?last_n=1');
    expect(slash.status).toBe(307);
    expect(slash.headers.get('location')).toBe('/episodes/g?last_n=1');
  });

  it('answers a plain-text 500 for a negative last_n, as the database would fail', async () => {
    const reply = await get(emulator.url, '/episodes/g?last_n=-1');
    expect(reply.status).toBe(500);
    expect(reply.text).toBe('Internal Server Error');
  });

  it('restartServer() drops hung requests and keeps serving', async () => {
    emulator.setFaults({ search: { hangRate: 1 } });
    // Settle the hung request's outcome at once, so its rejection is never an unhandled one.
    const hung = post(emulator.url, '/search', { query: 'tea' }).then(
      () => 'answered',
      (error: unknown) => error,
    );
    while (emulator.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    await emulator.restartServer();
    expect(await hung).toBeInstanceOf(Error);
    expect((await get(emulator.url, '/healthcheck')).status).toBe(200);
  });

  it('decodes percent-encoded path parameters', async () => {
    await addAndProcess('g-1', [message()]);
    const reply = await get(emulator.url, '/episodes/g%2D1?last_n=5');
    expect(reply.body).toHaveLength(1);
  });
});
