import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DigestSegment } from '@graphiti-memory/memory-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DIGEST_SEGMENTS_FILE, FileDigestSegmentStore } from './file-digest-segment-store.js';

let root: string;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'digest-segments-'));
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

function segment(sessionId: string, turnId: string): DigestSegment {
  return {
    groupId: `session-${sessionId}`,
    sessionId,
    lastTurnAt: 1,
    turns: [{ id: turnId, keys: [`session-${sessionId}\ngraphiti-memory.turn.${turnId}.user`], messages: [{ content: 'a question', role_type: 'user', role: 'user', name: `graphiti-memory.turn.${turnId}.user` }] }],
  };
}

describe('FileDigestSegmentStore', () => {
  it('keeps open segments across instances (a crashed process), in an owner-only file', async () => {
    await new FileDigestSegmentStore(root).update(() => ({ next: [segment('s1', 't1')], result: undefined }));
    expect(await new FileDigestSegmentStore(root).read()).toEqual([segment('s1', 't1')]);
    const mode = (await fs.stat(path.join(root, DIGEST_SEGMENTS_FILE))).mode & 0o777;
    expect(mode).toBe(0o600);
  });

  it('loses no change when two processes add at once', async () => {
    const first = new FileDigestSegmentStore(root);
    const second = new FileDigestSegmentStore(root);
    await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        (index % 2 === 0 ? first : second).update((current) => ({ next: [...current, segment(`s${index}`, `t${index}`)], result: undefined })),
      ),
    );
    expect((await first.read()).map((entry) => entry.sessionId).sort()).toEqual(Array.from({ length: 10 }, (_, index) => `s${index}`).sort());
  });

  it('reads a missing or damaged file as no segments', async () => {
    expect(await new FileDigestSegmentStore(root).read()).toEqual([]);
    await fs.writeFile(path.join(root, DIGEST_SEGMENTS_FILE), JSON.stringify({ segments: [{ groupId: 1 }, segment('s1', 't1')] }));
    expect(await new FileDigestSegmentStore(root).read()).toEqual([segment('s1', 't1')]);
  });
});

describe('FileDigestSegmentStore.read', () => {
  it('reads the file only when it changed (each drain pass reads the segments)', async () => {
    const store = new FileDigestSegmentStore(root);
    await store.update(() => ({ next: [segment('s1', 't1')], result: undefined }));
    const file = path.join(root, DIGEST_SEGMENTS_FILE);
    const reads = vi.spyOn(fs, 'readFile');
    try {
      const readsOfFile = () => reads.mock.calls.filter(([target]) => target === file).length;
      for (let pass = 0; pass < 5; pass++) expect(await store.read()).toEqual([segment('s1', 't1')]);
      expect(readsOfFile()).toBe(0);
      await new FileDigestSegmentStore(root).update((current) => ({ next: [...current, segment('s2', 't2')], result: undefined }));
      const before = readsOfFile();
      expect(await store.read()).toEqual([segment('s1', 't1'), segment('s2', 't2')]);
      expect(readsOfFile()).toBe(before + 1);
    } finally {
      reads.mockRestore();
    }
  });
});
