import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchConfigFiles, type ConfigFilesWatch } from './config-watcher.js';

let root: string;
let watch: ConfigFilesWatch | undefined;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'config-watch-'));
});
afterEach(async () => {
  watch?.dispose();
  await fs.rm(root, { recursive: true, force: true });
});

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('watchConfigFiles', () => {
  it('reports a file created in a folder that did not exist, atomic replacements and removal; nothing after dispose', async () => {
    const file = path.join(root, 'config', 'graphiti-memory', 'config.json');
    let changes = 0;
    watch = watchConfigFiles([file], () => changes++);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, '{}');
    await until(() => changes === 1, 'the new file');
    await fs.writeFile(`${file}.tmp`, '{"enabled":true}');
    await fs.rename(`${file}.tmp`, file);
    await until(() => changes === 2, 'the replaced file');
    await fs.rm(file);
    await until(() => changes === 3, 'the removed file');
    watch.dispose();
    await fs.writeFile(file, '{}');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(changes).toBe(3);
  });

  it('stays quiet when other files in the folder change', async () => {
    const file = path.join(root, '.graphiti-memory.json');
    let changes = 0;
    watch = watchConfigFiles([file], () => changes++);
    await fs.writeFile(path.join(root, 'other.txt'), 'x');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(changes).toBe(0);
  });
});
