// A disk that refuses the outbox's writes (full, read-only): the journal is closed and its lock
// released anyway, the failure names its code and file, and what reached the disk is replayed
// without a second post of anything that was delivered.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { entry, temporaryDirectory } from '../../test-support/journal-fixtures.js';
import { closingOutboxes } from '../../test-support/outboxes.js';
import { storageFaultOf, StorageWriteError } from '../stores/storage-fault.js';

const openOutbox = closingOutboxes();

/** Every write through an open file handle fails with `code` until restored (the disk refuses). */
async function refuseHandleWrites(directory: string, code: string): Promise<void> {
  const probe = await fs.open(path.join(directory, 'probe'), 'w');
  const prototype = Object.getPrototypeOf(probe) as { write: (...args: unknown[]) => Promise<unknown> };
  await probe.close();
  await fs.rm(path.join(directory, 'probe'));
  vi.spyOn(prototype, 'write').mockImplementation(() => Promise.reject(Object.assign(new Error(`${code}: refused`), { code })));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('FileOutbox on a disk that refuses writes', () => {
  it('rejects a flush with the code and the journal named, closes anyway and releases its lock: another outbox adopts what was durable at once', async () => {
    const directory = await temporaryDirectory('refused-');
    const first = await openOutbox({ directory });
    first.append([entry(0), entry(1), entry(2)]);
    await first.flush();
    const journal = first.stats().journalPath;

    await refuseHandleWrites(directory, 'ENOSPC');
    first.append([entry(3), entry(4)]);
    const failure = await first.flush().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(StorageWriteError);
    expect(storageFaultOf(failure)).toEqual({ code: 'ENOSPC', path: journal, message: expect.stringMatching(/^ENOSPC writing .*outbox-.*\.journal: the disk is full; free space/) as string });

    // Closing does not wait for space: the file and its lock are let go.
    const closing = first.close();
    await expect(Promise.race([closing.then(() => 'closed'), new Promise((resolve) => setTimeout(() => resolve('still open'), 2_000))])).resolves.toBe('closed');
    await expect(fs.stat(`${journal}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
    vi.restoreAllMocks();

    // The next process takes the journal over without waiting for a stale lock; what the disk
    // refused was never durable, so it is not there (its transcript offers it again).
    const second = await openOutbox({ directory, staleLockMs: 60_000 });
    expect(second.recovery().adoptedRecords).toBe(3);
    expect((await second.pending(10)).map((record) => record.message.name)).toEqual([entry(0), entry(1), entry(2)].map((each) => each.message.name));
    await expect(fs.stat(journal)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a record confirmed whose confirmed mark the disk refused comes back as sent, never as pending: it is looked for before any post', async () => {
    const directory = await temporaryDirectory('refused-confirm-');
    const first = await openOutbox({ directory });
    first.append([entry(0), entry(1)]);
    const offered = await first.pending(10);
    expect(offered).toHaveLength(2);
    first.markSent(
      offered.map((record) => record.id),
      Date.now(),
    );
    await first.flush();

    await refuseHandleWrites(directory, 'EROFS');
    // Delivered and found by confirmation; the mark cannot reach the disk.
    first.markConfirmed(offered.map((record) => record.id));
    await expect(first.flush()).rejects.toMatchObject({ code: 'EROFS', message: expect.stringContaining('the file system is read-only') as string });
    await first.close();
    vi.restoreAllMocks();

    // The journal is kept (its confirmed marks are missing) and replayed: nothing is pending, so
    // nothing is posted; both wait in flight for confirmation to find them in Graphiti.
    const second = await openOutbox({ directory, staleLockMs: 60_000 });
    expect(await second.pending(10)).toEqual([]);
    expect((await second.inFlight()).map((record) => [record.message.name, record.state])).toEqual([
      [entry(0).message.name, 'sent'],
      [entry(1).message.name, 'sent'],
    ]);
  });

  it('an offered record whose sent mark the disk refused is replayed as possibly sent, not as unsent', async () => {
    const directory = await temporaryDirectory('refused-sent-');
    const first = await openOutbox({ directory });
    first.append([entry(0)]);
    const offered = await first.pending(10);
    await refuseHandleWrites(directory, 'ENOSPC');
    // The post went out (the offered mark was durable before it); the sent mark is refused.
    first.markSent(
      offered.map((record) => record.id),
      Date.now(),
    );
    await first.close();
    vi.restoreAllMocks();
    const second = await openOutbox({ directory, staleLockMs: 60_000 });
    expect(await second.pending(10)).toEqual([]);
    expect((await second.inFlight()).map((record) => record.message.name)).toEqual([entry(0).message.name]);
  });
});

describe('storageFaultOf', () => {
  it('names refused writes by code and path, follows causes, and leaves other errors alone', () => {
    const enospc = Object.assign(new Error('no space'), { code: 'ENOSPC', path: '/state/tier/a.json' });
    expect(storageFaultOf(enospc)?.message).toBe('ENOSPC writing /state/tier/a.json: the disk is full; free space — queued memories are kept and resume once it can be written');
    expect(storageFaultOf(new Error('wrapped', { cause: Object.assign(new Error('ro'), { code: 'EROFS', path: '/state/x' }) }))).toMatchObject({ code: 'EROFS', path: '/state/x' });
    expect(storageFaultOf(Object.assign(new Error('rename'), { code: 'EACCES', path: '/state/a.tmp', dest: '/state/a.json' }))?.path).toBe('/state/a.json');
    expect(storageFaultOf(Object.assign(new Error('quota'), { code: 'EDQUOT' }), '/state/j')?.message).toMatch(/^EDQUOT writing \/state\/j: the disk quota is used up/);
    expect(storageFaultOf(Object.assign(new Error('gone'), { code: 'ENOENT', path: '/state/x' }))).toBeUndefined();
    expect(storageFaultOf(Object.assign(new Error('reset'), { code: 'ECONNRESET' }))).toBeUndefined();
    expect(storageFaultOf('ENOSPC')).toBeUndefined();
  });
});
