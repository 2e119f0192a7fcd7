import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { tryLock } from './file-locks.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileOutbox } from './file-outbox.js';
import { relocateOutboxJournals } from './journal-relocation.js';

let root: string;
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'journal-relocation-'));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const entry = (name: string) => ({ groupId: 'g1', message: { content: 'hello', role_type: 'user' as const, role: null, name }, enqueuedAt: 1 });

describe('relocateOutboxJournals', () => {
  it('moves a journal no process holds, and the outbox of the new folder delivers its records and keeps its ledger', async () => {
    const from = path.join(root, 'old');
    const to = path.join(root, 'new');
    const old = await FileOutbox.open({ directory: from, staleLockMs: 2_000 });
    expect((await old.admit([entry('a.turn.1.user')], old.deliveryLedger)).accepted).toBe(1);
    await old.flush();
    await old.close();
    expect(await relocateOutboxJournals(from, to)).toBe(1);
    expect((await fs.readdir(from)).filter((name) => name.endsWith('.journal'))).toEqual([]);
    const outbox = await FileOutbox.open({ directory: to, staleLockMs: 2_000 });
    try {
      await outbox.adoptOrphans();
      expect(outbox.stats().pending).toBe(1);
      // The moved ledger refuses the same message again.
      const admitted = await outbox.admit([entry('a.turn.1.user')], outbox.deliveryLedger);
      expect(admitted).toMatchObject({ accepted: 0, duplicates: 1 });
    } finally {
      await outbox.close();
    }
  });

  it('leaves a journal a live process holds, and a missing folder is nothing to move', async () => {
    const from = path.join(root, 'old');
    await fs.mkdir(from, { recursive: true });
    const held = path.join(from, 'outbox-abc-123.journal');
    await fs.writeFile(held, '');
    const release = await lockfile.lock(held, { realpath: false, stale: 10_000 });
    try {
      expect(await relocateOutboxJournals(from, path.join(root, 'new'))).toBe(0);
      expect(await fs.readdir(from)).toContain('outbox-abc-123.journal');
    } finally {
      await release();
    }
    expect(await relocateOutboxJournals(path.join(root, 'missing'), path.join(root, 'new'))).toBe(0);
  });

  it('leaves a journal whose live holder has been silent past the stale time (judged by the owner, not the age)', async () => {
    const from = path.join(root, 'old');
    await fs.mkdir(from, { recursive: true });
    const held = path.join(from, 'outbox-def-456.journal');
    await fs.writeFile(held, '');
    const lock = await tryLock(held, { staleMs: 10_000, updateMs: 60_000 }, () => undefined);
    if (lock === undefined) throw new Error('the test could not take the lock');
    try {
      // A holder that stalled: its lock folder untouched for a minute, its process alive (this one).
      const minuteAgo = new Date(Date.now() - 60_000);
      await fs.utimes(`${held}.lock`, minuteAgo, minuteAgo);
      expect(await relocateOutboxJournals(from, path.join(root, 'new'))).toBe(0);
      expect(await fs.readdir(from)).toContain('outbox-def-456.journal');
    } finally {
      await lock.release();
    }
    // Released: the next move takes it.
    expect(await relocateOutboxJournals(from, path.join(root, 'new'))).toBe(1);
  });
});
