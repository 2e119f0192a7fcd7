// Whether a state file's write waits for the disk: by default it does (fsync before the rename);
// files that only save work (said-once records, the hooks' tier) opt out, and stay atomic.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const writes = vi.hoisted(() => [] as Array<{ file: string; fsync: unknown }>);
vi.mock('write-file-atomic', async (importOriginal) => {
  const real = (await importOriginal<{ default: (file: string, data: string, options: { fsync?: boolean }) => Promise<void> }>()).default;
  return {
    default: (file: string, data: string, options: { fsync?: boolean }) => {
      writes.push({ file, fsync: options.fsync });
      return real(file, data, options);
    },
  };
});

const { LockedJsonFile } = await import('./locked-json-file.js');
const { FileSaidOnceStore } = await import('./file-said-once-store.js');

let root: string;
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'locked-json-'));
  writes.length = 0;
});
afterEach(() => fs.rm(root, { recursive: true, force: true }));

const asCount = (raw: unknown): number => (typeof raw === 'number' ? raw : 0);

describe('LockedJsonFile', () => {
  it('flushes each write to the disk unless told it need not, and writes the same content either way', async () => {
    const durable = new LockedJsonFile(path.join(root, 'durable.json'), asCount);
    const cache = new LockedJsonFile(path.join(root, 'cache.json'), asCount, undefined, { fsync: false });
    await durable.update((count) => ({ next: count + 1, result: undefined }));
    await cache.update((count) => ({ next: count + 1, result: undefined }));
    await cache.update((count) => ({ next: count + 1, result: undefined }));
    expect(writes.map(({ file, fsync }) => [path.basename(file), fsync])).toEqual([
      ['durable.json', true],
      ['cache.json', false],
      ['cache.json', false],
    ]);
    expect(await durable.read()).toBe(1);
    expect(await cache.read()).toBe(2);
    // No temporary file or lock is left beside them.
    expect((await fs.readdir(root)).sort()).toEqual(['cache.json', 'durable.json']);
  });

  it('said-once records (a lost one costs a repeat) do not wait for the disk', async () => {
    await new FileSaidOnceStore({ stateDirectory: root, endpoint: 'http://127.0.0.1:8000' }).record('session-1', { texts: ['Releases are cut from main.'] });
    expect(writes).toHaveLength(1);
    expect(writes[0]?.fsync).toBe(false);
  });
});
