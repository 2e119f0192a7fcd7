import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hookLogFolder, logIgnoredProjectKeysOnce, readHookRuns, recordHookRun, type HookRun } from './hook-log.js';

let stateDirectory: string;

beforeEach(async () => {
  stateDirectory = await fs.mkdtemp(path.join(os.tmpdir(), 'hook-log-'));
});

afterEach(async () => {
  vi.restoreAllMocks();
  await fs.rm(stateDirectory, { recursive: true, force: true });
});

const run = (second: number, fields: Partial<HookRun> = {}): HookRun => ({ time: new Date(Date.UTC(2026, 10, 25, 10, 0, second)).toISOString(), event: 'Stop', outcome: 'queued', ms: 5, ...fields });

describe('recordHookRun on a disk that refuses writes', () => {
  it('never throws, keeps the refused runs in this process and writes them (and their failure line) once the disk takes writes again', async () => {
    const failed = run(1, { outcome: 'failed', detail: `ENOSPC writing ${stateDirectory}/x.journal: the disk is full; free space` });
    const refuse = vi.spyOn(fs, 'open').mockRejectedValue(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }));
    await expect(recordHookRun(stateDirectory, failed)).resolves.toBeUndefined();
    expect(await readHookRuns(stateDirectory)).toEqual([]);
    refuse.mockRestore();

    await recordHookRun(stateDirectory, run(2));
    expect((await readHookRuns(stateDirectory)).map((each) => each.outcome)).toEqual(['failed', 'queued']);
    const log = await fs.readFile(path.join(hookLogFolder(stateDirectory), 'hook.log'), 'utf8');
    expect(log).toContain(`Stop failed ENOSPC writing ${stateDirectory}/x.journal: the disk is full`);
    // Written once: the next run does not repeat them.
    await recordHookRun(stateDirectory, run(3));
    expect((await readHookRuns(stateDirectory)).map((each) => each.time)).toEqual([run(1).time, run(2).time, run(3).time]);
  });

  it('drops a run that failed for another reason than a refused write (nothing to wait for)', async () => {
    const refuse = vi.spyOn(fs, 'open').mockRejectedValue(Object.assign(new Error('EISDIR'), { code: 'EISDIR' }));
    await recordHookRun(stateDirectory, run(1));
    refuse.mockRestore();
    await recordHookRun(stateDirectory, run(2));
    expect((await readHookRuns(stateDirectory)).map((each) => each.time)).toEqual([run(2).time]);
  });
});

describe('logIgnoredProjectKeysOnce', () => {
  it('words each ignored key as `config show` does (a refused file as the whole file), once per set, in a private hooks folder', async () => {
    const ignored = [
      { file: '/repo/.graphiti-memory.json', key: 'enabled', why: 'it would turn memory on' },
      { file: '/other/.graphiti-memory.json', key: '*', why: 'owned by another user' },
    ];
    await logIgnoredProjectKeysOnce(stateDirectory, ignored);
    await logIgnoredProjectKeysOnce(stateDirectory, ignored);
    const log = await fs.readFile(path.join(hookLogFolder(stateDirectory), 'hook.log'), 'utf8');
    expect(log.match(/project-file ignored enabled \(\/repo\/\.graphiti-memory\.json\): it would turn memory on\n/g)).toHaveLength(1);
    expect(log).toContain('project-file ignored the whole file (/other/.graphiti-memory.json): owned by another user');
    if (process.platform !== 'win32') {
      expect((await fs.stat(hookLogFolder(stateDirectory))).mode & 0o777).toBe(0o700);
      expect((await fs.stat(path.join(hookLogFolder(stateDirectory), 'ignored-project-keys'))).mode & 0o777).toBe(0o600);
    }
  });
});
