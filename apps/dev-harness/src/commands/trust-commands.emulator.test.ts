// Issue 13's commands in-process against the emulator over loopback HTTP: forget covers the
// workspace with its sessions, pending holds directive promotions until approved, audit lists
// what was sent without its content.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { FilePendingMemoryStore } from '@graphiti-memory/memory-node-storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeEmulatorCommands, openEmulatorCommands, runCommand, type EmulatorCommandsFixture } from '../test-support/emulator-commands.js';
import { SAMPLE_TRANSCRIPT } from '../test-support/sample-transcript.js';
import { describeEntry, parseSince } from './audit-command.js';

let fixture: EmulatorCommandsFixture;
let emulator: RunningEmulator;
let folder: string;

beforeEach(async () => {
  fixture = await openEmulatorCommands('harness-trust-', {});
  ({ emulator, folder } = fixture);
});

afterEach(() => closeEmulatorCommands(fixture));

const harness = (args: readonly string[]) => runCommand(folder, args);

async function ingest(session: string, lines = SAMPLE_TRANSCRIPT): Promise<void> {
  const file = path.join(folder, `${session}.jsonl`);
  await fs.writeFile(file, lines);
  const run = await harness(['ingest', file, '--granularity', 'turn', '--session', session, '--wait', '20', '--json', '--endpoint', emulator.url]);
  expect(run.exitCode, run.err).toBe(0);
}

const groupsOnServer = () => new Set(emulator.state.episodes().map((episode) => episode.group_id));

describe('forget', () => {
  it('--scope workspace deletes the workspace group and every session group of it', async () => {
    await ingest('one');
    await ingest('two');
    expect(groupsOnServer().size).toBe(3);
    const run = await harness(['forget', '--scope', 'workspace', '--yes', '--json', '--endpoint', emulator.url]);
    expect(run.exitCode, run.err).toBe(0);
    expect((run.json()['deletedGroups'] as string[]).length).toBe(3);
    expect(groupsOnServer().size).toBe(0);
    const again = await harness(['forget', '--scope', 'workspace', '--yes', '--json', '--endpoint', emulator.url]);
    expect(again.json()).toMatchObject({ deletedGroups: [expect.stringMatching(/^gm_workspace_/)], dequeued: 0 });
  });

  it('drops what is still queued for the forgotten groups, and a later ingest never re-sends those turns', async () => {
    emulator.setFaults({ messages: { errorRate: 1, errorStatus: 503 } });
    const file = path.join(folder, 'queued.jsonl');
    await fs.writeFile(file, SAMPLE_TRANSCRIPT);
    const failing = await harness(['ingest', file, '--granularity', 'turn', '--session', 'queued', '--wait', '1', '--json', '--endpoint', emulator.url]);
    expect(failing.exitCode).toBe(1);
    const forgot = await harness(['forget', '--scope', 'workspace', '--yes', '--json', '--endpoint', emulator.url]);
    expect(forgot.exitCode, forgot.err).toBe(0);
    expect(forgot.json()).toMatchObject({ dequeued: 8 });
    emulator.setFaults({});
    const postsBefore = emulator.requests.filter((request) => request.route === 'messages').length;
    const again = await harness(['ingest', file, '--granularity', 'turn', '--session', 'queued', '--wait', '5', '--json', '--endpoint', emulator.url]);
    // The forgotten turns are not even planned again (forgotten turns stay forgotten), so none is offered to the ledger.
    expect(again.json()).toMatchObject({ enqueued: 0 });
    expect(emulator.requests.filter((request) => request.route === 'messages').length).toBe(postsBefore);
    expect(emulator.state.episodes()).toEqual([]);
  });

  it('--scope session deletes one session; --all the rest; usage errors exit 2', async () => {
    await ingest('one');
    await ingest('two');
    const one = await harness(['forget', '--scope', 'session', '--session', 'one', '--yes', '--json', '--endpoint', emulator.url]);
    expect(one.exitCode, one.err).toBe(0);
    expect(one.json()['deletedGroups']).toHaveLength(1);
    expect(groupsOnServer().size).toBe(2);
    const all = await harness(['forget', '--all', '--yes', '--json', '--endpoint', emulator.url]);
    expect(all.json()['deletedGroups']).toHaveLength(2);
    expect(groupsOnServer().size).toBe(0);
    expect((await harness(['forget', '--scope', 'session', '--yes', '--endpoint', emulator.url])).exitCode).toBe(2);
    expect((await harness(['forget', '--yes', '--endpoint', emulator.url])).exitCode).toBe(2);
  });
});

describe('pending', () => {
  it('holds a directive of an ingested turn until approved; reject sends nothing', async () => {
    const transcript = [
      { role: 'user', content: 'decision: release every Friday\npreference (user): short answers', timestamp: '2025-03-01T10:00:00Z' },
      { role: 'assistant', content: 'Noted.', timestamp: '2025-03-01T10:00:05Z' },
    ]
      .map((line) => JSON.stringify(line))
      .join('\n');
    await ingest('directives', transcript);
    const promotions = () => emulator.state.episodes().filter((episode) => episode.name.includes('.promotion.'));
    expect(promotions()).toEqual([]);

    const listed = await harness(['pending', 'list', '--json']);
    expect(listed.exitCode, listed.err).toBe(0);
    const pending = listed.json()['pending'] as Array<{ id: string; kind: string; text: string }>;
    expect(pending.map((memory) => [memory.kind, memory.text])).toEqual([
      ['decision', 'release every Friday'],
      ['preference', 'short answers'],
    ]);
    const approved = await harness(['pending', 'approve', pending[0]?.id ?? '', '--text', 'release every Friday after noon', '--json', '--endpoint', emulator.url]);
    expect(approved.exitCode, approved.err).toBe(0);
    expect(approved.json()).toMatchObject({ ok: true, confirmed: 1, kind: 'decision', scope: 'workspace' });
    const rejected = await harness(['pending', 'reject', pending[1]?.id ?? '', '--json']);
    expect(rejected.json()).toMatchObject({ rejected: true });
    expect(promotions().map((episode) => episode.content)).toEqual([expect.stringContaining('release every Friday after noon')]);
    expect((await harness(['pending', 'list', '--json'])).json()['pending']).toEqual([]);
    const missing = await harness(['pending', 'reject', 'nope']);
    expect(missing.exitCode).toBe(1);
    expect(missing.err).toContain('pending list');
  });
});

describe('pending loop proposals (loops.proposeWithModel, proposed in VS Code)', () => {
  it('approving an open proposal opens the loop and sends its task_update; a done proposal for a loop no longer open says why and is dropped', async () => {
    const store = new FilePendingMemoryStore({ filePath: path.join(folder, 'state', 'pending-memories.json') });
    const evidence = { tool: 'VS Code chat', sessionId: 'chat-1', at: '2026-11-25T10:00:00.000Z' };
    await store.add({ id: 'a00000000001', kind: 'task_update', scope: 'workspace', text: 'Open loop: document the new flags', source: 'loop-proposal', createdAt: 1, loop: { action: 'open', text: 'document the new flags', evidence } });
    await store.add({ id: 'a00000000002', kind: 'task_update', scope: 'workspace', text: 'Loop done: an old loop', source: 'loop-proposal', createdAt: 2, loop: { action: 'done', text: 'an old loop', loopId: 'ffffffffffff', evidence } });
    const listed = await harness(['pending', 'list']);
    expect(listed.out).toContain('from the chat model (a loop proposal)');

    const approved = await harness(['pending', 'approve', 'a00000000001', '--json', '--endpoint', emulator.url]);
    expect(approved.exitCode, approved.err).toBe(0);
    expect(approved.json()).toMatchObject({ ok: true, confirmed: 1, kind: 'task_update', scope: 'workspace' });
    const loops = (await harness(['loops', 'list', '--json', '--endpoint', emulator.url])).json()['loops'] as Array<{ text: string; evidence: { sessionId?: string; marker?: string } }>;
    expect(loops.map((loop) => [loop.text, loop.evidence.sessionId, loop.evidence.marker])).toEqual([['document the new flags', 'chat-1', 'model']]);
    expect(emulator.state.episodes().map((episode) => episode.content)).toContainEqual(expect.stringContaining('Open loop (VS Code chat): document the new flags'));

    const refused = await harness(['pending', 'approve', 'a00000000002', '--endpoint', emulator.url]);
    expect(refused.exitCode).toBe(1);
    expect(refused.err).toContain('no longer open');
    expect((await harness(['pending', 'list', '--json'])).json()['pending']).toEqual([]);
  });
});

describe('pending after a forget (issue 29)', () => {
  const directives = [
    { role: 'user', content: 'decision: release every Friday', timestamp: '2025-03-01T10:00:00Z' },
    { role: 'assistant', content: 'Noted.', timestamp: '2025-03-01T10:00:05Z' },
  ]
    .map((line) => JSON.stringify(line))
    .join('\n');

  it('forget --scope workspace drops the directives held for it: pending list is empty', async () => {
    await ingest('held', directives);
    expect((await harness(['pending', 'list', '--json'])).json()['pending']).toHaveLength(1);
    const forgot = await harness(['forget', '--scope', 'workspace', '--yes', '--json', '--endpoint', emulator.url]);
    expect(forgot.json()).toMatchObject({ droppedPending: 1 });
    expect((await harness(['pending', 'list', '--json'])).json()['pending']).toEqual([]);
  });

  it('approving a memory whose group was forgotten meanwhile is refused with the reason; nothing is sent', async () => {
    await ingest('held', directives);
    const [memory] = (await harness(['pending', 'list', '--json'])).json()['pending'] as Array<{ id: string }>;
    // A forget that did not reach the pending file (another tool's, an older version's): the forget ledger still says so.
    const listed = await fs.readFile(path.join(folder, 'state', 'pending-memories.json'), 'utf8');
    await harness(['forget', '--scope', 'workspace', '--yes', '--json', '--endpoint', emulator.url]);
    await fs.writeFile(path.join(folder, 'state', 'pending-memories.json'), listed);
    const approved = await harness(['pending', 'approve', memory?.id ?? '', '--json', '--endpoint', emulator.url]);
    expect(approved.exitCode).toBe(1);
    expect(approved.err).toContain('was forgotten after it was proposed');
    expect(emulator.state.episodes().filter((episode) => episode.name.includes('.promotion.'))).toEqual([]);
    expect((await harness(['pending', 'list', '--json'])).json()['pending']).toEqual([]);
  });
});

describe('audit', () => {
  it('lists every request that sent memory, with sizes and names, never content', async () => {
    await ingest('one');
    const run = await harness(['audit', '--json']);
    expect(run.exitCode, run.err).toBe(0);
    const json = run.json() as { entries: Array<Record<string, unknown>>; requests: number };
    expect(json.requests).toBe(emulator.requests.filter((request) => request.route === 'messages').length);
    expect(json.entries[0]).toMatchObject({ operation: 'POST /messages', face: 'rest', endpoint: emulator.url, kind: 'messages' });
    const names = json.entries.flatMap((entry) => entry['episodeNames'] as string[]);
    expect(names).toHaveLength(8); // 4 messages to the session group, 4 to the workspace group
    expect(names.every((name) => name.startsWith('graphiti-memory.turn.'))).toBe(true);
    expect(run.out).not.toMatch(/pnpm|short answers/);
    const future = await harness(['audit', '--since', '2999-01-01', '--json']);
    expect(future.json()['requests']).toBe(0);
    expect((await harness(['audit', '--since', 'yesterday'])).exitCode).toBe(2);
  });

  it('--endpoint lists the requests to that endpoint only, however it is spelt', async () => {
    await ingest('one');
    const sent = (await harness(['audit', '--json'])).json()['requests'] as number;
    expect(sent).toBeGreaterThan(0);
    const spelt = emulator.url.replace('http://', 'HTTP://') + '/';
    const same = await harness(['audit', '--endpoint', spelt, '--json']);
    expect(same.exitCode, same.err).toBe(0);
    expect(same.json()['requests']).toBe(sent);
    const other = await harness(['audit', '--endpoint', 'http://graphiti.example:8000', '--json']);
    expect(other.json()['requests']).toBe(0);
    const text = await harness(['audit', '--endpoint', 'http://graphiti.example:8000', '--since', '7d']);
    expect(text.out).toContain('Nothing was sent to http://graphiti.example:8000 since');
  });

  it('says who wrote each digest a request carried (the chat model or the filter)', () => {
    const entry = { at: '2026-11-25T10:00:00.000Z', tool: 'vscode-extension', endpoint: 'http://127.0.0.1:8000', operation: 'POST /messages', groupIds: ['g'], episodeNames: ['graphiti-memory.digest.s1.t0'], bytes: 300, redactions: 0, kind: 'messages' } as const;
    expect(describeEntry({ ...entry, digestWriters: { 'graphiti-memory.digest.s1.t0': 'chatModel' } })).toContain('1 messages, 300 bytes (1 digest: 1 by the chat model)');
    expect(describeEntry(entry)).not.toContain('digest:');
  });

  it('--since takes an age or an ISO time', () => {
    expect(parseSince('2h', 10_000_000)).toBe(10_000_000 - 7_200_000);
    expect(parseSince('2026-11-01T00:00:00Z', 0)).toBe(Date.parse('2026-11-01T00:00:00Z'));
  });
});
