// The locked JSON file's read cache: a read of an unchanged file costs a stat, never a parse;
// every change by another writer (another process: another instance here) is seen at once.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LockedJsonFile } from './locked-json-file.js';

interface Counter {
  readonly n: number;
}

let root: string;
let filePath: string;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'locked-json-file-'));
  filePath = path.join(root, 'state.json');
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

/** A locked file whose parses are counted: each one is a read of the file's content. */
function counted(): { file: LockedJsonFile<Counter>; parses: () => number } {
  let parses = 0;
  const parse = (raw: unknown): Counter => {
    parses++;
    return { n: typeof (raw as Partial<Counter> | undefined)?.n === 'number' ? (raw as Counter).n : 0 };
  };
  return { file: new LockedJsonFile(filePath, parse), parses: () => parses };
}

const set = (n: number) => () => ({ next: { n }, result: undefined });

describe('LockedJsonFile.read', () => {
  it('reads an unchanged file once, and hands back the same content', async () => {
    await new LockedJsonFile<Counter>(filePath, (raw) => raw as Counter).update(set(1));
    const { file, parses } = counted();
    const first = await file.read();
    const second = await file.read();
    expect(first).toEqual({ n: 1 });
    expect(second).toBe(first);
    expect(parses()).toBe(1);
  });

  it("sees each write of another process at once, even one of the same size right after another", async () => {
    const { file } = counted();
    const other = counted().file;
    expect(await file.read()).toEqual({ n: 0 });
    for (let n = 1; n <= 20; n++) {
      await other.update(set(n % 2 === 0 ? 2 : 3));
      expect(await file.read()).toEqual({ n: n % 2 === 0 ? 2 : 3 });
    }
    // A writer outside this class (an atomic rewrite of the same size) is seen too.
    await writeFileAtomic(filePath, `${JSON.stringify({ n: 7 }, null, 2)}\n`);
    expect(await file.read()).toEqual({ n: 7 });
    await fs.rm(filePath);
    expect(await file.read()).toEqual({ n: 0 });
  });

  it('keeps what this instance wrote without reading it back', async () => {
    const { file, parses } = counted();
    await file.update(set(5));
    const before = parses();
    expect(await file.read()).toEqual({ n: 5 });
    expect(parses()).toBe(before);
    expect(await counted().file.read()).toEqual({ n: 5 });
  });
});

describe('LockedJsonFile.update round trips', () => {
  it('makes a missing folder (and parents) 0700 on the first update, and no folder when it exists', async () => {
    const nested = path.join(root, 'state', 'tier', 'file.json');
    const mkdir = vi.spyOn(fs, 'mkdir');
    try {
      const file = new LockedJsonFile<Counter>(nested, (raw) => (raw as Counter | undefined) ?? { n: 0 });
      await file.update(set(1));
      expect(await file.read()).toEqual({ n: 1 });
      if (process.platform !== 'win32') {
        expect((await fs.stat(path.join(root, 'state'))).mode & 0o777).toBe(0o700);
        expect((await fs.stat(path.dirname(nested))).mode & 0o777).toBe(0o700);
        expect((await fs.stat(nested)).mode & 0o777).toBe(0o600);
      }
      mkdir.mockClear();
      await file.update(set(2));
      // Only the lock's own staging folder: the state folder exists, so it is not made again.
      expect(mkdir.mock.calls.map(([folder]) => path.basename(String(folder)))).toEqual([expect.stringMatching(/^file\.json\.lock\.[0-9a-f]+\.new$/)]);
      expect(await counted().file.read()).toEqual({ n: 0 });
      expect(JSON.parse(await fs.readFile(nested, 'utf8'))).toEqual({ n: 2 });
    } finally {
      mkdir.mockRestore();
    }
  });

  it('leaves only the file behind: no lock, staging or released lock folders, and no recursive removal', async () => {
    const rm = vi.spyOn(fs, 'rm');
    try {
      const { file } = counted();
      await file.update(set(1));
      await file.update(set(2));
      expect(await fs.readdir(root)).toEqual(['state.json']);
      expect(rm).not.toHaveBeenCalled();
    } finally {
      rm.mockRestore();
    }
  });
});
