// Other users of the machine must not read the state folder: new folders are 0700, and a folder an
// older version left open is closed with everything in it, but only what this user owns and never
// the home folder or a link's target.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FileAuditLog } from '../audit/file-audit-log.js';
import { FileKeyValueStore } from './file-key-value-store.js';
import { appendPrivateFile, makePrivateFolder, tightenStateFolder } from './private-folder.js';

const unix = process.platform !== 'win32';
let root: string;

const modeOf = async (file: string): Promise<number> => (await fs.stat(file)).mode & 0o777;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'private-folder-'));
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe.runIf(unix)('private state folders', () => {
  it('creates a folder and its missing parents 0700', async () => {
    await makePrivateFolder(path.join(root, 'state', 'hooks'));
    expect(await modeOf(path.join(root, 'state'))).toBe(0o700);
    expect(await modeOf(path.join(root, 'state', 'hooks'))).toBe(0o700);
  });

  it('closes a state folder left open, with its folders and files, but not what a link points to', async () => {
    const state = path.join(root, 'state');
    const outside = path.join(root, 'outside');
    await fs.mkdir(path.join(state, 'hooks'), { recursive: true, mode: 0o755 });
    await fs.mkdir(outside, { mode: 0o755 });
    await fs.chmod(state, 0o755);
    await fs.writeFile(path.join(state, 'pending-memories.json'), '{}', { mode: 0o644 });
    await fs.writeFile(path.join(state, 'hooks', 'hook.log'), '', { mode: 0o644 });
    await fs.writeFile(path.join(outside, 'theirs'), '', { mode: 0o644 });
    await fs.symlink(outside, path.join(state, 'link'));

    expect(await tightenStateFolder(state)).toBe(true);
    expect(await modeOf(state)).toBe(0o700);
    expect(await modeOf(path.join(state, 'hooks'))).toBe(0o700);
    expect(await modeOf(path.join(state, 'pending-memories.json'))).toBe(0o600);
    expect(await modeOf(path.join(state, 'hooks', 'hook.log'))).toBe(0o600);
    expect(await modeOf(outside)).toBe(0o755);
    expect(await modeOf(path.join(outside, 'theirs'))).toBe(0o644);
  });

  it('never changes the home folder, and reports a missing folder without throwing', async () => {
    const before = await modeOf(os.homedir());
    expect(await tightenStateFolder(os.homedir())).toBe(false);
    expect(await modeOf(os.homedir())).toBe(before);
    expect(await tightenStateFolder(path.join(root, 'missing'))).toBe(false);
  });

  it('keeps the stores private: the key-value store folder 0700 and file 0600, the audit log 0600', async () => {
    const store = await FileKeyValueStore.open(path.join(root, 'state', 'global.json'));
    await store.set('key', 'value');
    await store.flush();
    expect(await modeOf(path.join(root, 'state'))).toBe(0o700);
    expect(await modeOf(path.join(root, 'state', 'global.json'))).toBe(0o600);
    const audit = path.join(root, 'state', 'audit', 'audit.jsonl');
    const log = new FileAuditLog({ filePath: audit });
    log.record({ at: new Date().toISOString(), endpoint: 'http://localhost:8000', tool: 'graphiti-harness', face: 'rest', operation: 'POST /messages', groupIds: ['g'], episodeNames: ['e'], bytes: 1, redactions: 0, kind: 'messages' });
    await log.flush();
    expect(await modeOf(path.dirname(audit))).toBe(0o700);
    expect(await modeOf(audit)).toBe(0o600);
  });
});

describe.runIf(unix)('appendPrivateFile', () => {
  it('creates a missing folder 0700 and the file 0600, then appends without making the folder again', async () => {
    const file = path.join(root, 'state', 'hooks', 'runs.jsonl');
    await appendPrivateFile(file, 'one\n');
    expect(await modeOf(path.join(root, 'state'))).toBe(0o700);
    expect(await modeOf(path.dirname(file))).toBe(0o700);
    expect(await modeOf(file)).toBe(0o600);
    const mkdir = vi.spyOn(fs, 'mkdir');
    try {
      await appendPrivateFile(file, 'two\n');
      expect(mkdir).not.toHaveBeenCalled();
    } finally {
      mkdir.mockRestore();
    }
    expect(await fs.readFile(file, 'utf8')).toBe('one\ntwo\n');
  });
});
