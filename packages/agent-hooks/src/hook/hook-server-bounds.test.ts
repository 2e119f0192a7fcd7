// Stalled or hostile clients must not grow the hook server or keep it alive: it caps open
// connections, destroys those that send no full request in time or too large a one, and leaves
// after its idle time whatever connections it holds. Served in this process on a real socket.
import { promises as fs } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forwardHookEvent, pingHookServer } from './hook-forward.js';
import { HOOK_SERVER_PROTOCOL, hookServerPlace, MAX_REQUEST_BYTES, type HookServerFrame, type HookServerPlace } from './hook-server-place.js';
import { serveHooks, type HookServerOptions } from './hook-server.js';

const BUILD = 'dddddddddddd';

let root: string;
let entry: string;
let place: HookServerPlace;
const clients: net.Socket[] = [];
const savedConfigDirectory = process.env['GRAPHITI_MEMORY_CONFIG_DIR'];

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'hook-server-bounds-'));
  await fs.mkdir(path.join(root, 'runner'));
  await fs.mkdir(path.join(root, 'config'));
  process.env['GRAPHITI_MEMORY_CONFIG_DIR'] = path.join(root, 'config');
  entry = path.join(root, 'runner', 'hook-runner.cjs');
  await fs.writeFile(path.join(root, 'runner', `hook-runner-core-${BUILD}.cjs`), '// core');
  await fs.writeFile(entry, `const build = "${BUILD}";\n`);
  const found = hookServerPlace({ HOME: root, GRAPHITI_MEMORY_CONFIG_DIR: path.join(root, 'config') }, BUILD);
  if (found === undefined) throw new Error('no private folder for the hook server');
  place = found;
});

afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  await pingHookServer(place, BUILD, HOOK_SERVER_PROTOCOL, 'stop', 200);
  if (savedConfigDirectory === undefined) delete process.env['GRAPHITI_MEMORY_CONFIG_DIR'];
  else process.env['GRAPHITI_MEMORY_CONFIG_DIR'] = savedConfigDirectory;
  await fs.rm(root, { recursive: true, force: true });
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function startServer(options: Partial<HookServerOptions> = {}): Promise<{ stopped: () => boolean; served: Promise<void> }> {
  let stopped = false;
  const served = serveHooks({ place, build: BUILD, entryPath: entry, ...options }).then(() => {
    stopped = true;
  });
  for (let attempt = 0; (await pingHookServer(place, BUILD, HOOK_SERVER_PROTOCOL, 'ping', 100))?.kind !== 'pong'; attempt++) {
    if (attempt > 100) throw new Error('the server did not come up');
    await sleep(50);
  }
  return { stopped: () => stopped, served };
}

/** Opens a connection that sends `text` (a request never finished) and then holds on. */
function stalledClient(text: string): Promise<{ socket: net.Socket; closed: Promise<void> }> {
  return new Promise((resolve) => {
    const socket = net.connect(place.socket);
    clients.push(socket);
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    socket.on('error', () => undefined);
    socket.on('connect', () => socket.write(text, () => resolve({ socket, closed })));
    socket.on('close', () => resolve({ socket, closed }));
  });
}

async function pong(): Promise<HookServerFrame & { kind: 'pong' }> {
  const answer = await pingHookServer(place, BUILD, HOOK_SERVER_PROTOCOL, 'ping', 500);
  if (answer?.kind !== 'pong') throw new Error(`no pong: ${JSON.stringify(answer)}`);
  return answer;
}

describe('a hook server under stalled and oversized clients', () => {
  it('refuses connections past its cap, destroys stalled ones after the request deadline, and answers again', async () => {
    await startServer({ requestMs: 1_000 });
    const stalled = await Promise.all(Array.from({ length: 200 }, () => stalledClient('{"kind":"hook","stdinText":"')));
    // Past the cap of 32 open connections the server refuses at once.
    const refusedAt = Date.now();
    await Promise.all(stalled.slice(40).map((client) => client.closed));
    expect(Date.now() - refusedAt).toBeLessThan(900);
    // Those it took are destroyed once the request deadline passes, and a real request is answered.
    await Promise.all(stalled.map((client) => client.closed));
    const answer = await pong();
    expect(answer.connections?.refused).toBeGreaterThanOrEqual(200 - 32);
    expect(answer.connections?.timedOut).toBeGreaterThanOrEqual(1);
    expect((answer.connections?.refused ?? 0) + (answer.connections?.timedOut ?? 0)).toBe(200);
    expect(answer.connections?.open).toBe(1);
  });

  it('drops a partial frame past the request size cap without waiting for the rest', async () => {
    await startServer({ requestMs: 20_000 });
    const client = await stalledClient(`{"kind":"hook","stdinText":"${'x'.repeat(MAX_REQUEST_BYTES + 1024)}`);
    await client.closed;
    expect(MAX_REQUEST_BYTES).toBeLessThan(8 * 1024 * 1024);
    expect((await pong()).connections?.oversized).toBe(1);
  });

  it('a runner with a request past the cap runs it itself at once, without sending it', async () => {
    await startServer();
    const request = { kind: 'hook' as const, protocol: HOOK_SERVER_PROTOCOL, build: BUILD, argv: [], stdinText: 'x'.repeat(MAX_REQUEST_BYTES), cwd: root, env: {}, startedAt: Date.now() };
    expect(await forwardHookEvent(place, request)).toEqual({ kind: 'unavailable' });
    expect((await pong()).connections).toMatchObject({ oversized: 0, timedOut: 0, refused: 0 });
  });

  it('leaves after its idle time while connections that sent nothing are still open', async () => {
    const server = await startServer({ idleMs: 400, requestMs: 20_000 });
    const held = await Promise.all(Array.from({ length: 5 }, () => stalledClient('')));
    await Promise.race([server.served, sleep(5_000)]);
    expect(server.stopped()).toBe(true);
    // It let them go as it left.
    await Promise.all(held.map((client) => client.closed));
    expect(await pingHookServer(place, BUILD, HOOK_SERVER_PROTOCOL, 'ping', 100)).toBeUndefined();
  });
});
