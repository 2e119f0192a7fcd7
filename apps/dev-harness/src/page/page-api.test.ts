// The memory page's open loops (issue 33): the overview lists the workspace's open loops with their
// age and a stale mark, Done / Drop close one through LoopService and hand its task_update entry to
// ingestion; an id that is not a loop's, or a loop already closed, is refused with a clear error
// and nothing is sent.
import type { LoopClosing, OpenLoop, OutboxEntry } from '@graphiti-memory/memory-core';
import { describe, expect, it } from 'vitest';
import type { HarnessMemory } from '../composition/harness-container.js';
import { MemoryPageApi, PageError } from './page-api.js';

const DAY_MS = 24 * 60 * 60_000;

function loop(id: string, text: string, daysAgo: number): OpenLoop {
  const at = new Date(Date.now() - daysAgo * DAY_MS).toISOString();
  return { id, text, scope: 'workspace', groupId: 'gm_workspace_1', status: 'open', evidence: { tool: 'Claude Code', at, marker: 'todo' }, createdAt: at, updatedAt: at, mentions: 1 };
}

function pageApi(loops: OpenLoop[]) {
  const enqueued: OutboxEntry[] = [];
  const closes: Array<{ id: string; status: string; tool: string | undefined }> = [];
  const entry = { groupId: 'gm_workspace_1', message: { content: 'task_update' } } as unknown as OutboxEntry;
  const memory = {
    endpoint: { label: 'http://127.0.0.1:1', url: 'http://127.0.0.1:1', emulator: undefined },
    groups: { resolve: async () => undefined, resolveMany: async () => [] },
    pending: { list: async () => [] },
    audit: { read: async () => [] },
    registry: undefined,
    configuration: { current: () => ({ team: { consent: false }, loops: { expireDays: 30 } }) },
    ingestion: { enqueueEntries: (entries: readonly OutboxEntry[]) => enqueued.push(...entries) },
    loops: {
      list: async () => ({ groupId: 'gm_workspace_1', loops: loops.filter((known) => known.status === 'open') }),
      close: async (id: string, status: 'done' | 'dropped', tool?: string): Promise<LoopClosing> => {
        closes.push({ id, status, tool });
        const found = loops.find((known) => known.id === id);
        if (found === undefined) return { ok: false, reason: 'not-found' };
        if (found.status !== 'open') return { ok: false, reason: 'not-open', matches: [found] };
        const closed: OpenLoop = { ...found, status };
        loops.splice(loops.indexOf(found), 1, closed);
        return { ok: true, loop: closed, entries: [entry] };
      },
    },
  } as unknown as HarnessMemory;
  const api = new MemoryPageApi(memory, { workspaceFolder: '/work/project', timeoutMs: 1_000, stateDirectory: '/tmp/none', env: {} });
  return { api, enqueued, closes };
}

describe('the memory page and open loops', () => {
  it('lists the open loops with their age and source, stale ones marked', async () => {
    const { api } = pageApi([loop('aaaaaaaaaaaa', 'add a migration test', 2), loop('bbbbbbbbbbbb', 'check the staging deploy', 45)]);
    const overview = await api.overview('workspace');
    expect(overview['loops']).toEqual([
      expect.objectContaining({ id: 'aaaaaaaaaaaa', text: 'add a migration test', stale: false, age: 'open for 2 days, Claude Code' }),
      expect.objectContaining({ id: 'bbbbbbbbbbbb', text: 'check the staging deploy', stale: true, age: 'stale: untouched for 45 days, Claude Code' }),
    ]);
  });

  it('closes a loop as the memory page and hands its task_update entry to ingestion', async () => {
    const { api, enqueued, closes } = pageApi([loop('aaaaaaaaaaaa', 'add a migration test', 2)]);
    const answer = await api.closeLoop({ id: 'aaaaaaaaaaaa' }, 'done');
    expect(answer['done']).toContain('marked done: “add a migration test”');
    expect(closes).toEqual([{ id: 'aaaaaaaaaaaa', status: 'done', tool: 'memory page' }]);
    expect(enqueued).toHaveLength(1);
    expect((await api.overview('workspace'))['loops']).toEqual([]);
  });

  it('refuses an id that is not a loop id, an unknown loop and one already closed; nothing is sent', async () => {
    const { api, enqueued } = pageApi([{ ...loop('aaaaaaaaaaaa', 'add a migration test', 2), status: 'done' }]);
    await expect(api.closeLoop({ id: '../../etc' }, 'dropped')).rejects.toMatchObject({ status: 400 });
    await expect(api.closeLoop({}, 'dropped')).rejects.toBeInstanceOf(PageError);
    await expect(api.closeLoop({ id: 'cccccccccccc' }, 'dropped')).rejects.toMatchObject({ status: 404 });
    await expect(api.closeLoop({ id: 'aaaaaaaaaaaa' }, 'dropped')).rejects.toMatchObject({ status: 409, message: expect.stringContaining('already done') });
    expect(enqueued).toEqual([]);
  });
});
