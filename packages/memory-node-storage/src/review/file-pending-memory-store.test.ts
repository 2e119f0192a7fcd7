import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { PendingMemory } from '@graphiti-memory/memory-core';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../test-support/journal-fixtures.js';
import { adoptPendingMemories, FilePendingMemoryStore } from './file-pending-memory-store.js';

const memory = (id: string, createdAt: number): PendingMemory => ({ id, kind: 'decision', scope: 'workspace', text: `text ${id}`, source: 'directive', createdAt });

describe('FilePendingMemoryStore', () => {
  it('keeps one entry per id, lists oldest first, and hands each memory out once', async () => {
    const filePath = path.join(await temporaryDirectory(), 'pending-memories.json');
    const store = new FilePendingMemoryStore({ filePath });
    expect(await store.add(memory('b', 2))).toBe(true);
    expect(await store.add(memory('a', 1))).toBe(true);
    expect(await store.add(memory('a', 5))).toBe(false);
    const other = new FilePendingMemoryStore({ filePath });
    expect((await other.list()).map((item) => item.id)).toEqual(['a', 'b']);
    const taken = await Promise.all([store.take('a'), other.take('a')]);
    expect(taken.filter((item) => item !== undefined)).toEqual([memory('a', 1)]);
    expect((await store.list()).map((item) => item.id)).toEqual(['b']);
    if (process.platform !== 'win32') expect((await fs.stat(filePath)).mode & 0o777).toBe(0o600);
  });

  it('keeps a loop proposal with its action across processes, and leaves out one that lost it', async () => {
    const filePath = path.join(await temporaryDirectory(), 'pending-memories.json');
    const evidence = { tool: 'VS Code chat', sessionId: 'session-7', at: '2026-11-21T10:00:00.000Z' };
    const done: PendingMemory = { ...memory('d', 1), kind: 'task_update', text: 'Loop done: add a test', source: 'loop-proposal', loop: { action: 'done', text: 'add a test', loopId: 'a1b2c3d4e5f6', evidence } };
    const open: PendingMemory = { ...memory('o', 2), kind: 'task_update', text: 'Open loop: write docs', source: 'loop-proposal', loop: { action: 'open', text: 'write docs', evidence } };
    await new FilePendingMemoryStore({ filePath }).add(done);
    await new FilePendingMemoryStore({ filePath }).add(open);
    const raw = JSON.parse(await fs.readFile(filePath, 'utf8')) as { memories: Record<string, unknown>[] };
    raw.memories.push({ ...raw.memories[1], id: 'x', loop: undefined }, { ...raw.memories[0], id: 'y', loop: { action: 'done', text: 'add a test', evidence } });
    await fs.writeFile(filePath, JSON.stringify(raw));
    expect(await new FilePendingMemoryStore({ filePath }).list()).toEqual([done, open]);
  });

  it('keeps a team memory held for review (a `decision (team): …` directive) across processes', async () => {
    const filePath = path.join(await temporaryDirectory(), 'pending-memories.json');
    const team: PendingMemory = { ...memory('t', 1), scope: 'team' };
    await new FilePendingMemoryStore({ filePath }).add(team);
    expect(await new FilePendingMemoryStore({ filePath }).list()).toEqual([team]);
  });

  it('finds its file lazily, once, and takes over the memories of a file kept elsewhere', async () => {
    const directory = await temporaryDirectory();
    const shared = path.join(directory, 'state', 'pending-memories.json');
    let lookups = 0;
    const store = new FilePendingMemoryStore({
      filePath: async () => {
        lookups++;
        return shared;
      },
    });
    expect(await store.add(memory('a', 1))).toBe(true);
    const old = path.join(directory, 'global-storage', 'pending-memories.json');
    await fs.mkdir(path.dirname(old), { recursive: true });
    await fs.writeFile(old, JSON.stringify({ version: 1, memories: [memory('a', 1), memory('c', 3), { id: 'broken' }] }));
    expect(await adoptPendingMemories(old, store)).toBe(1);
    expect(await adoptPendingMemories(old, store)).toBe(0);
    await expect(fs.access(old)).rejects.toThrow();
    expect((await new FilePendingMemoryStore({ filePath: shared }).list()).map((item) => item.id)).toEqual(['a', 'c']);
    expect(await store.filePath()).toBe(shared);
    expect(lookups).toBe(1);
  });
});

describe('FilePendingMemoryStore.forgetGroups', () => {
  it('drops the memories of forgotten groups (and, for memories without a group, of the named scopes), for every process', async () => {
    const filePath = path.join(await temporaryDirectory(), 'pending-memories.json');
    const store = new FilePendingMemoryStore({ filePath });
    await store.add({ ...memory('w1', 1), groupId: 'workspace_a' });
    await store.add({ ...memory('w2', 2), groupId: 'workspace_b' });
    await store.add({ ...memory('u-old', 3), scope: 'user' });
    await store.add({ ...memory('w-old', 4) });
    expect(await new FilePendingMemoryStore({ filePath }).forgetGroups(['workspace_a'])).toBe(1);
    expect((await store.list()).map((item) => item.id)).toEqual(['w2', 'u-old', 'w-old']);
    expect(await store.forgetGroups(['user_x'], ['user'])).toBe(1);
    expect((await store.list()).map((item) => item.id)).toEqual(['w2', 'w-old']);
    expect(await store.forgetGroups(['nothing'])).toBe(0);
  });

  it('keeps the groups a memory belongs to across processes; a forget of any of them drops it, and an old record goes with its session', async () => {
    const filePath = path.join(await temporaryDirectory(), 'pending-memories.json');
    const store = new FilePendingMemoryStore({ filePath });
    await store.add({ ...memory('d1', 1), scope: 'user', groupId: 'user_x', groupIds: ['user_x', 'session_s', 'workspace_a'], sessionId: 's' });
    await store.add({ ...memory('old', 2), sessionId: 's' });
    await store.add({ ...memory('other', 3), groupId: 'workspace_b', groupIds: ['workspace_b'] });
    const [listed] = await new FilePendingMemoryStore({ filePath }).list();
    expect(listed?.groupIds).toEqual(['user_x', 'session_s', 'workspace_a']);
    expect(await store.forgetGroups(['session_s'], [], ['s'])).toBe(2);
    expect((await store.list()).map((item) => item.id)).toEqual(['other']);
  });
});

