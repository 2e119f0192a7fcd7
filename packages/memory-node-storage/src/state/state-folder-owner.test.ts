import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendPrivateFile } from '../stores/private-folder.js';
import { stateFolderRefusal } from './state-folder-owner.js';

const asRoot = process.getuid?.() === 0;
let root: string;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'state-owner-'));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe('stateFolderRefusal', () => {
  it('accepts a missing folder (memory makes it) and a folder of this user', async () => {
    expect(await stateFolderRefusal(path.join(root, 'missing'))).toBeUndefined();
    expect(await stateFolderRefusal(root)).toBeUndefined();
  });

  it('refuses a symbolic link, naming it and what to do', async () => {
    await fs.mkdir(path.join(root, 'real'));
    await fs.symlink(path.join(root, 'real'), path.join(root, 'state'));
    const refusal = await stateFolderRefusal(path.join(root, 'state'));
    expect(refusal?.reason).toBe('symlink');
    expect(refusal?.message).toMatch(/is a symbolic link .*stateDir/);
  });

  // chown to another user needs root; as anyone else the case cannot be made here.
  it.skipIf(!asRoot)('refuses a folder another user owns, naming the owner (run as root: chown to uid 65534)', async () => {
    const state = path.join(root, 'theirs');
    await fs.mkdir(state);
    await fs.chown(state, 65534, 65534);
    const refusal = await stateFolderRefusal(state);
    expect(refusal?.reason).toBe('not-owned');
    expect(refusal?.message).toContain('user id 65534');
    expect(refusal?.message).toContain('not to you');
    expect(refusal?.message).toMatch(/stateDir/);
  });
});

describe('appendPrivateFile', () => {
  it('does not follow a symbolic link planted where the file should be', async () => {
    const outside = path.join(root, 'outside.txt');
    await fs.writeFile(outside, 'theirs\n');
    await fs.mkdir(path.join(root, 'hooks'));
    await fs.symlink(outside, path.join(root, 'hooks', 'runs.jsonl'));
    await expect(appendPrivateFile(path.join(root, 'hooks', 'runs.jsonl'), 'a line\n')).rejects.toThrow();
    expect(await fs.readFile(outside, 'utf8')).toBe('theirs\n');
  });

  it.skipIf(!asRoot)('does not append to a file another user owns', async () => {
    const file = path.join(root, 'runs.jsonl');
    await fs.writeFile(file, '');
    await fs.chown(file, 65534, 65534);
    await expect(appendPrivateFile(file, 'a line\n')).rejects.toThrow(/not a regular file of this user/);
    expect(await fs.readFile(file, 'utf8')).toBe('');
  });
});
