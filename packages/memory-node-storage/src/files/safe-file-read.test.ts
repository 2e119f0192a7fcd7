import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveMemoryConfig, resolveMemoryConfigSync } from '../config/resolve-config.js';
import { FileReadRefusal, readSafeTextFile, readSafeTextFileSync, SAFE_READ_MAX_BYTES } from './safe-file-read.js';

let root: string;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'safe-read-'));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const reads = [
  ['async', (file: string, options = {}) => readSafeTextFile(file, options)],
  ['sync', async (file: string, options = {}) => readSafeTextFileSync(file, options)],
] as const;

describe.each(reads)('readSafeTextFile (%s)', (_name, read) => {
  it('reads a small regular file, and a link that stays inside its root', async () => {
    await fs.writeFile(path.join(root, 'a.json'), '{"enabled":true}');
    await fs.symlink('a.json', path.join(root, 'link.json'));
    expect(await read(path.join(root, 'a.json'))).toBe('{"enabled":true}');
    expect(await read(path.join(root, 'link.json'), { root })).toBe('{"enabled":true}');
  });

  it('rejects a missing file with ENOENT', async () => {
    await expect(read(path.join(root, 'none.json'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a link to /dev/zero at once, as not a regular file', async () => {
    await fs.symlink('/dev/zero', path.join(root, 'zero.json'));
    const started = Date.now();
    await expect(read(path.join(root, 'zero.json'))).rejects.toMatchObject({ reason: 'not-regular' });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('refuses a link that leaves its root', async () => {
    const outside = path.join(root, 'outside.json');
    await fs.writeFile(outside, '{}');
    await fs.mkdir(path.join(root, 'repo'));
    await fs.symlink(outside, path.join(root, 'repo', 'x.json'));
    const refusal = await read(path.join(root, 'repo', 'x.json'), { root: path.join(root, 'repo') }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(FileReadRefusal);
    expect((refusal as FileReadRefusal).reason).toBe('symlink-escape');
    expect((refusal as Error).message).toContain(outside);
  });

  it('refuses a file over 1 MB, and a /proc file that says it is empty but is not', async () => {
    await fs.writeFile(path.join(root, 'big.json'), 'x'.repeat(2 * 1024 * 1024));
    await expect(read(path.join(root, 'big.json'))).rejects.toMatchObject({ reason: 'too-large' });
    const procFile = '/proc/self/pagemap';
    const stat = await fs.stat(procFile).catch(() => undefined);
    if (stat === undefined || stat.uid !== process.getuid?.()) return;
    await fs.symlink(procFile, path.join(root, 'pagemap.json'));
    const started = Date.now();
    // Refused (too large, or the kernel's own refusal of an odd read), never read for seconds.
    await expect(read(path.join(root, 'pagemap.json'), { maxBytes: SAFE_READ_MAX_BYTES })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it.skipIf(process.getuid?.() !== 0)('refuses a file owned by another user, naming the owner', async () => {
    const file = path.join(root, 'theirs.json');
    await fs.writeFile(file, '{}');
    await fs.chown(file, 65534, 65534);
    await expect(read(file)).rejects.toThrow(/owned by user id 65534/);
  });
});

describe('a repository config file that is not a config file', () => {
  let env: Record<string, string>;
  let workspace: string;
  beforeEach(async () => {
    env = { GRAPHITI_MEMORY_CONFIG_DIR: path.join(root, 'config'), GRAPHITI_MEMORY_STATE_DIR: path.join(root, 'state') };
    workspace = path.join(root, 'repo');
    await fs.mkdir(path.join(workspace, '.git'), { recursive: true });
  });

  it.each([
    ['a link to /dev/zero', (file: string) => fs.symlink('/dev/zero', file), 'not a regular file'],
    ['a 2 MB file', (file: string) => fs.writeFile(file, `{"a":"${'x'.repeat(2 * 1024 * 1024)}"}`), 'larger than'],
  ])('%s is refused quickly, with a message naming the file', async (_name, plant, says) => {
    const file = path.join(workspace, '.graphiti-memory.json');
    await plant(file);
    for (const resolve of [resolveMemoryConfig, async (options: Parameters<typeof resolveMemoryConfigSync>[0]) => resolveMemoryConfigSync(options)]) {
      const started = Date.now();
      const resolution = JSON.stringify(await resolve({ workspaceFolder: workspace, env }));
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(resolution).toContain(says);
      expect(resolution).toContain('.graphiti-memory.json');
    }
  });
});
