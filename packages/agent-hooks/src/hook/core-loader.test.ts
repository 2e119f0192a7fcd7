// The code cache of the hook core: used when it is this core's and intact, otherwise ignored (the
// core compiles from source and works the same) and replaced after the event. A real core file in
// a temporary folder, loaded in this process.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { coreCacheFile, loadCoreWithCache } from './core-loader.js';

const BUILD = 'abcdef012345';
/** Enough functions that V8's cache has a body worth damaging. */
const CORE = `${Array.from({ length: 50 }, (_, index) => `function part${index}(value) { return value.map((item) => item * ${index + 1}).filter((item) => item % 3 !== 0).length; }`).join('\n')}
exports.answer = (values) => part7(values) + part42(values);
exports.requireWorks = () => typeof require('node:path').join;`;

interface Core {
  answer(values: number[]): number;
  requireWorks(): string;
}

let folder: string;
let coreFile: string;
let cacheFile: string;

/** Loads the core, checks it works, saves its cache; returns what became of the cache it found. */
function load(): string {
  const loaded = loadCoreWithCache<Core>(coreFile);
  expect(loaded.exports.answer([1, 2, 3, 4, 5, 6])).toBe(8);
  expect(loaded.exports.requireWorks()).toBe('function');
  loaded.saveCache();
  return loaded.cache;
}

/** The cache file as the loader writes it: SHA-256 of V8's data, then the data. */
function framed(data: Buffer): Buffer {
  return Buffer.concat([createHash('sha256').update(data).digest(), data]);
}

beforeEach(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'hook-core-cache-'));
  coreFile = path.join(folder, `hook-runner-core-${BUILD}.cjs`);
  cacheFile = coreCacheFile(coreFile);
  await fs.writeFile(coreFile, CORE);
});

afterEach(() => fs.rm(folder, { recursive: true, force: true }));

describe('the hook core code cache', () => {
  it('is written after the first load (private to the user) and used by the next', async () => {
    expect(load()).toBe('missing');
    if (process.platform !== 'win32') expect((await fs.stat(cacheFile)).mode & 0o777).toBe(0o600);
    expect(load()).toBe('used');
  });

  it('damaged after its header (a torn or corrupted file) is ignored, not handed to V8, and replaced', async () => {
    load();
    const bytes = await fs.readFile(cacheFile);
    // Flip bytes of V8's data but keep its header and the length: V8 itself would accept it.
    for (let index = bytes.length - 200; index < bytes.length; index += 7) bytes[index] = (bytes[index] ?? 0) ^ 0x5a;
    await fs.writeFile(cacheFile, bytes, { mode: 0o600 });
    expect(load()).toBe('damaged');
    expect(load()).toBe('used');
  });

  it('truncated or empty is ignored and replaced', async () => {
    load();
    await fs.writeFile(cacheFile, (await fs.readFile(cacheFile)).subarray(0, 20), { mode: 0o600 });
    expect(load()).toBe('damaged');
    await fs.writeFile(cacheFile, '', { mode: 0o600 });
    expect(load()).toBe('damaged');
    expect(load()).toBe('used');
  });

  it("of another source (intact, but another core's) is rejected by V8 and replaced", async () => {
    const foreign = new vm.Script('exports.answer = () => 1;').createCachedData();
    await fs.writeFile(cacheFile, framed(foreign), { mode: 0o600 });
    expect(load()).toBe('rejected');
    expect(load()).toBe('used');
  });

  it.skipIf(process.platform === 'win32')('writable by others is never used, and replaced by a private one', async () => {
    load();
    await fs.chmod(cacheFile, 0o666);
    expect(load()).toBe('unsafe');
    expect((await fs.stat(cacheFile)).mode & 0o777).toBe(0o600);
    expect(load()).toBe('used');
  });

  it('a new cache removes the caches of other builds and runtimes', async () => {
    const old = path.join(folder, 'hook-runner-core-0123456789ab.11.3.244.8-node.38.cache');
    await fs.writeFile(old, 'old');
    load();
    expect((await fs.readdir(folder)).sort()).toEqual([path.basename(coreFile), path.basename(cacheFile)].sort());
  });

  it("the lean prompt core's cache and the full core's live side by side", async () => {
    load();
    const promptCore = path.join(folder, `hook-runner-prompt-${BUILD}.cjs`);
    await fs.writeFile(promptCore, CORE);
    const loaded = loadCoreWithCache<Core>(promptCore);
    expect(loaded.cache).toBe('missing');
    loaded.saveCache();
    expect(coreCacheFile(promptCore)).not.toBe(cacheFile);
    expect((await fs.readdir(folder)).sort()).toEqual([path.basename(coreFile), path.basename(cacheFile), path.basename(promptCore), path.basename(coreCacheFile(promptCore))].sort());
    expect(loadCoreWithCache<Core>(promptCore).cache).toBe('used');
    expect(load()).toBe('used');
  });
});
