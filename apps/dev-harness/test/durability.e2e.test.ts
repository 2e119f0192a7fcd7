// Issue 15 (no loss, no duplicate) and issue 13's bounded delivery, end to end: the BUILT binary,
// spawned as users run it (several at once on one --state-dir), against the emulator over HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_TRANSCRIPT } from '../src/test-support/sample-transcript.js';
import { ensureHarnessBuilt, harnessBinary as binary, packageFolder } from './hook-server-fixture.js';

/** The transcript: 20 lines (10 turns), default scopes (session + workspace): 40 messages. */
const TWENTY_LINES = Array.from({ length: 20 }, (_, index) =>
  JSON.stringify({
    role: index % 2 === 0 ? 'user' : 'assistant',
    content: index % 2 === 0 ? `Question number ${index / 2}: which tool handles step ${index}?` : `Step ${index - 1} is handled by tool ${index}.`,
    timestamp: new Date(Date.UTC(2026, 0, 1, 10, 0, index)).toISOString(),
  }),
).join('\n');

interface Run {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

interface Started {
  readonly child: ChildProcess;
  readonly done: Promise<Run>;
  /** Resolves when stderr has shown `text`. */
  seen(text: string): Promise<void>;
}

const running: ChildProcess[] = [];

function start(args: readonly string[], apiKey = ''): Started {
  const child = spawn(process.execPath, [binary, ...args], {
    cwd: packageFolder,
    env: { ...process.env, NO_COLOR: '1', GRAPHITI_API_KEY: apiKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let stdout = '';
  let stderr = '';
  const watchers: { text: string; resolve: () => void }[] = [];
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const watcher of watchers.splice(0)) {
      if (stderr.includes(watcher.text)) watcher.resolve();
      else watchers.push(watcher);
    }
  });
  const done = new Promise<Run>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (exitCode, signal) => resolve({ exitCode, signal, stdout, stderr }));
  });
  return {
    child,
    done,
    seen: (text) => (stderr.includes(text) ? Promise.resolve() : new Promise((resolve) => watchers.push({ text, resolve }))),
  };
}

const harness = (args: readonly string[], apiKey?: string): Promise<Run> => start(args, apiKey).done;

/** A server on a free port; closed after the test. */
async function listenOn(server: net.Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}
const servers: net.Server[] = [];

let folder: string;
let transcript: string;
const emulators: RunningEmulator[] = [];

async function emulator(options: Parameters<typeof startEmulator>[0] = {}): Promise<RunningEmulator> {
  const started = await startEmulator({ processingDelayMs: 1, ...options });
  emulators.push(started);
  return started;
}

function storedKeys(server: RunningEmulator): string[] {
  return server.state.episodes().map((episode) => `${episode.group_id}:${episode.name}`);
}

const messagePosts = (server: RunningEmulator): number => server.requests.filter((request) => request.route === 'messages').length;

beforeAll(async () => {
  await ensureHarnessBuilt();
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'harness-durability-'));
  transcript = path.join(folder, 'twenty.jsonl');
  await fs.writeFile(transcript, TWENTY_LINES);
}, 120_000);

afterEach(async () => {
  for (const child of running.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(emulators.splice(0).map((server) => server.close()));
  for (const server of servers.splice(0)) server.close();
});

afterAll(async () => {
  await fs.rm(folder, { recursive: true, force: true });
});

describe('graphiti-harness: no loss, no duplicate', () => {
  it('two runs on one state dir at the same moment store every message exactly once', async () => {
    const server = await emulator();
    const state = path.join(folder, 'state-two');
    const args = ['ingest', transcript, '--granularity', 'turn', '--wait', '60', '--json', '--endpoint', server.url, '--state-dir', state];
    const [first, second] = await Promise.all([harness(args), harness(args)]);
    expect([first.exitCode, second.exitCode], first.stderr + second.stderr).toEqual([0, 0]);
    const results = [JSON.parse(first.stdout), JSON.parse(second.stdout)] as { queued: number; duplicates: number }[];
    expect(results[0]!.queued + results[1]!.queued).toBe(40);
    await server.idle();
    const keys = storedKeys(server);
    expect(keys.length).toBe(40);
    expect(new Set(keys).size).toBe(40);
  }, 90_000);

  it('sends again what a damaged journal lost, says so, and never counts it as delivered', async () => {
    const failing = await emulator({ faults: { messages: { errorRate: 1 } } });
    const state = path.join(folder, 'state-damaged');
    const first = start(['ingest', transcript, '--granularity', 'turn', '--max-attempts', '100', '--endpoint', failing.url, '--state-dir', state]);
    await first.seen('messages queued');
    first.child.kill('SIGINT');
    await first.done;
    const outboxFolder = await findOutboxFolder(state);
    const journals = (await fs.readdir(outboxFolder)).filter((name) => /^outbox-.+\.journal$/.test(name));
    expect(journals.length).toBe(1);
    const journalPath = path.join(outboxFolder, journals[0]!);
    const lines = (await fs.readFile(journalPath, 'utf8')).split('\n');
    lines[5] = 'x'.repeat(lines[5]!.length);
    const damaged = lines.join('\n');
    await fs.writeFile(journalPath, damaged.slice(0, Math.floor(damaged.length / 2)));

    // The same endpoint (outbox state is per endpoint), now healthy.
    const server = failing;
    server.setFaults({});
    const second = await harness(['ingest', transcript, '--granularity', 'turn', '--wait', '60', '--resend-after', '2', '--json', '--endpoint', server.url, '--state-dir', state]);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stderr).toContain(journals[0]);
    expect(second.stderr).toMatch(/damaged and 1 cut-off lines/);
    const result = JSON.parse(second.stdout) as { ok: boolean; recovery: { damagedFiles: string[]; corruptLines: number }; confirmed: number };
    expect(result.recovery.damagedFiles).toEqual([journals[0]]);
    expect(result.confirmed).toBe(40);
    await server.idle();
    const keys = storedKeys(server);
    expect(keys.length).toBe(40);
    expect(new Set(keys).size).toBe(40);
  }, 90_000);

  it('after a run against a failing server, a re-run sends at once what was never POSTed (offered is not sent)', async () => {
    const failing = await emulator({ faults: { messages: { errorRate: 1 } } });
    const state = path.join(folder, 'state-offered');
    const first = start(['ingest', transcript, '--granularity', 'turn', '--max-attempts', '100', '--endpoint', failing.url, '--state-dir', state]);
    await first.seen('messages queued');
    // Let at least one batch be POSTed (and refused) before stopping.
    while (messagePosts(failing) === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    first.child.kill('SIGINT');
    await first.done;
    const server = failing;
    server.setFaults({});
    // The default resend window is 300 s: finishing within 30 s shows nothing waited for it.
    const second = await harness(['ingest', transcript, '--granularity', 'turn', '--wait', '30', '--json', '--endpoint', server.url, '--state-dir', state]);
    expect(second.exitCode, second.stderr).toBe(0);
    const result = JSON.parse(second.stdout) as { queued: number; sent: number; confirmed: number; duplicates: number };
    expect(result).toMatchObject({ queued: 0, duplicates: 40, sent: 40, confirmed: 40 });
    expect(new Set(storedKeys(server)).size).toBe(40);
  }, 90_000);

  it('a server refusing every write as invalid (422) ends in dead letters, with no further requests', async () => {
    // A refusal is final (the same body gets the same answer); an outage (5xx, no connection) is not
    // a failure and never dead-letters: outage-delivery.e2e covers that.
    const failing = await emulator({ faults: { messages: { errorRate: 1, errorStatus: 422 } } });
    const file = path.join(folder, 'sample.jsonl');
    await fs.writeFile(file, SAMPLE_TRANSCRIPT);
    const state = path.join(folder, 'state-dead');
    const common = ['--endpoint', failing.url, '--state-dir', state, '--json'];
    const first = await harness(['ingest', file, '--granularity', 'turn', '--max-attempts', '2', ...common]);
    expect(first.exitCode).toBe(1);
    expect(JSON.parse(first.stdout)).toMatchObject({ ok: false, deadLettered: 8, deadLetters: 8 });
    expect(first.stderr).toContain('outbox list');
    // Each message refused (a refused batch is tried message by message), none tried again.
    const posts = messagePosts(failing);
    expect(posts).toBeGreaterThan(0);

    const again = await harness(['ingest', file, '--granularity', 'turn', '--max-attempts', '2', ...common]);
    expect(JSON.parse(again.stdout)).toMatchObject({ queued: 0, duplicates: 8, sent: 0 });
    expect(messagePosts(failing)).toBe(posts);

    const listed = await harness(['outbox', 'list', ...common]);
    expect(listed.exitCode).toBe(0);
    const letters = (JSON.parse(listed.stdout) as { deadLetters: { id: string; attempts: number; lastError: string }[] }).deadLetters;
    expect(letters.length).toBe(8);
    expect(letters[0]?.lastError).toContain('HTTP 422');
    expect(messagePosts(failing)).toBe(posts);

    failing.setFaults({});
    const retried = await harness(['outbox', 'retry', letters[0]!.id, ...common]);
    expect(retried.exitCode, retried.stderr).toBe(0);
    expect(JSON.parse(retried.stdout)).toMatchObject({ retried: 1, sent: 1, deadLetters: 7 });
    const dropped = await harness(['outbox', 'drop', ...common]);
    expect(JSON.parse(dropped.stdout)).toMatchObject({ dropped: 7 });
    const empty = await harness(['outbox', 'list', ...common]);
    expect(JSON.parse(empty.stdout)).toMatchObject({ deadLetters: [] });
    const help = await harness(['outbox', '--help']);
    expect(help.stdout).toContain('Examples:');
  }, 90_000);

  it('prints the derived session id, which selects the session scope, and keeps state files private', async () => {
    const server = await emulator();
    const state = path.join(folder, 'state-session');
    const run = await harness(['ingest', transcript, '--granularity', 'turn', '--wait', '60', '--json', '--endpoint', server.url, '--state-dir', state]);
    expect(run.exitCode, run.stderr).toBe(0);
    const { sessionId } = JSON.parse(run.stdout) as { sessionId: string };
    expect(sessionId).toMatch(/\S/);
    const episodes = await harness(['episodes', '--scope', 'session', '--session', sessionId, '--last', '50', '--json', '--endpoint', server.url, '--state-dir', state]);
    expect(episodes.exitCode, episodes.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(episodes.stdout))).toContain('Question number 3');
    const human = await harness(['ingest', transcript, '--granularity', 'turn', '--endpoint', server.url, '--state-dir', state]);
    expect(human.stdout).toContain(`session ${sessionId}`);
    expect(human.stderr).toContain(`--session ${sessionId}`);
    expect(human.stdout).toMatch(/queued 0, sent 0, confirmed 0/);
    for (const file of await listFiles(state)) expect({ file, mode: (await fs.stat(file)).mode & 0o077 }).toEqual({ file, mode: 0 });
  }, 90_000);
});

async function findOutboxFolder(state: string): Promise<string> {
  const endpoints = path.join(state, 'endpoints');
  const [endpoint] = await fs.readdir(endpoints);
  return path.join(endpoints, endpoint!, 'outbox');
}

async function listFiles(directory: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await fs.readdir(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory() && !entry.name.endsWith('.lock')) files.push(...(await listFiles(full)));
    else if (entry.isFile()) files.push(full);
  }
  return files;
}

describe('graphiti-harness: what failed, said precisely', () => {
  it('tells a missing API key from a wrong one', async () => {
    const url = await listenOn(
      http.createServer((request, response) => {
        const ok = request.headers.authorization === 'Bearer right-key';
        response.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
        response.end(ok ? '{"status":"healthy"}' : '{"detail":"Unauthorized"}');
      }),
    );
    const missing = await harness(['health', '--endpoint', url]);
    const wrong = await harness(['health', '--endpoint', url], 'wrong-key');
    expect([missing.exitCode, wrong.exitCode]).toEqual([1, 1]);
    expect(missing.stderr).toContain('none was given');
    expect(wrong.stderr).toContain('the API key was not accepted');
    expect(wrong.stderr).not.toContain('wrong-key');
  }, 30_000);

  it('says a server answering with non-HTTP bytes is not HTTP, not that it could not connect', async () => {
    const url = await listenOn(net.createServer((socket) => socket.once('data', () => socket.end('SSH-2.0-OpenSSH_9.6\r\n'))));
    const run = await harness(['health', '--endpoint', url]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('not in HTTP');
    expect(run.stderr).not.toContain('could not connect');
  }, 30_000);

  it('counts a transcript line over the size limit as too long, not malformed', async () => {
    const server = await emulator();
    const file = path.join(folder, 'long-line.jsonl');
    // Over the harness's 32 Mi character line limit, between two good lines.
    const long = JSON.stringify({ role: 'user', content: 'x'.repeat(33 * 1024 * 1024), timestamp: '2026-01-01T10:00:00Z' });
    await fs.writeFile(file, `${SAMPLE_TRANSCRIPT}\n${long}\n`);
    const run = await harness(['ingest', file, '--granularity', 'turn', '--format', 'jsonl', '--json', '--endpoint', server.url, '--state-dir', path.join(folder, 'state-long')]);
    expect(JSON.parse(run.stdout)).toMatchObject({ malformedLines: 0, tooLongLines: 1 });
    expect(run.stderr).toContain('too long');
  }, 60_000);
});
