import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FilePendingMemoryStore, sharedStateFiles } from '@graphiti-memory/memory-node-storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pendingNotice, withPendingNotice } from './pending-notice.js';

let state: string;
beforeEach(async () => {
  state = await fs.mkdtemp(path.join(os.tmpdir(), 'pending-notice-'));
});
afterEach(async () => {
  await fs.rm(state, { recursive: true, force: true });
});

async function hold(id: string, text: string): Promise<void> {
  const store = new FilePendingMemoryStore({ filePath: sharedStateFiles(state).pendingMemories });
  await store.add({ id, kind: 'decision', scope: 'workspace', text, source: 'directive', createdAt: Date.now() });
}

describe('pendingNotice', () => {
  it('says nothing when no memory waits, and counts those of every tool in the shared file, never their text', async () => {
    expect(await pendingNotice(state)).toBeUndefined();
    await hold('aaaaaaaaaaaa', 'adopt zod for settings');
    expect(await pendingNotice(state)).toBe(
      'Graphiti Memory: 1 memory awaits your review: run `graphiti-harness pending list`, or open the Graphiti Memory view in VS Code.',
    );
    await hold('bbbbbbbbbbbb', 'release on Fridays');
    const notice = await pendingNotice(state);
    expect(notice).toContain('2 memories await your review');
    expect(notice).not.toMatch(/zod|Fridays/);
  });

  it('fails open: an unreadable state folder gives no notice', async () => {
    await fs.writeFile(path.join(state, 'blocker'), '');
    expect(await pendingNotice(path.join(state, 'blocker'))).toBeUndefined();
  });
});

describe('withPendingNotice', () => {
  it('puts the notice after the brief, or alone when the brief is empty', () => {
    expect(withPendingNotice({ outcome: 'empty' }, 'N')).toEqual({ outcome: 'empty', context: 'N' });
    expect(withPendingNotice({ outcome: 'brief', context: 'B', drain: true }, 'N')).toEqual({ outcome: 'brief', context: 'B\n\nN', drain: true });
    expect(withPendingNotice({ outcome: 'brief', context: 'B' }, undefined)).toEqual({ outcome: 'brief', context: 'B' });
  });
});
