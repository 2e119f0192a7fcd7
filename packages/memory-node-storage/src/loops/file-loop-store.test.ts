// The loop file of the state folder: changes from two stores (two processes' worth) both land, a
// damaged file is set aside rather than failing every capture, records that are not loops are left
// out, and the file is private.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { OpenLoop } from '@graphiti-memory/memory-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileLoopStore } from './file-loop-store.js';

let folder: string;
let file: string;
beforeEach(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'loop-store-'));
  file = path.join(folder, 'loops.json');
});
afterEach(async () => {
  await fs.rm(folder, { recursive: true, force: true });
});

function loop(id: string, status: OpenLoop['status'] = 'open'): OpenLoop {
  const at = new Date().toISOString();
  return { id, text: `loop ${id}`, scope: 'workspace', groupId: 'gm_workspace_1', status, evidence: { tool: 'Claude Code', sessionId: 's1', at, marker: 'todo' }, createdAt: at, updatedAt: at, mentions: 1 };
}

const add = (store: FileLoopStore, added: OpenLoop) => store.update((current) => ({ next: [...current, added], result: undefined }));

describe('FileLoopStore', () => {
  it('keeps every change of two stores on one file, written owner-only', async () => {
    const one = new FileLoopStore({ filePath: file });
    const two = new FileLoopStore({ filePath: async () => file });
    await Promise.all(Array.from({ length: 10 }, (_, index) => add(index % 2 === 0 ? one : two, loop(`id${index}`))));
    expect((await one.list()).map((known) => known.id).sort()).toEqual(Array.from({ length: 10 }, (_, index) => `id${index}`).sort());
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
  });

  it('sets a damaged file aside and starts over, and leaves out records that are not loops', async () => {
    await fs.writeFile(file, '{"version":1,"loops":[{"id":"torn"');
    const store = new FileLoopStore({ filePath: file });
    expect(await store.list()).toEqual([]);
    await add(store, loop('fresh'));
    expect((await store.list()).map((known) => known.id)).toEqual(['fresh']);
    expect(await fs.readFile(`${file}.corrupt`, 'utf8')).toContain('torn');
    await fs.writeFile(file, JSON.stringify({ version: 1, loops: [loop('kept'), { id: 'no-text' }, { ...loop('bad'), status: 'maybe' }] }));
    expect((await new FileLoopStore({ filePath: file }).list()).map((known) => known.id)).toEqual(['kept']);
  });
});
