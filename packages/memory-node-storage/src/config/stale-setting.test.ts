// `recall.stale` in the configuration files: a project file may make the stale check stricter
// (drop, mark) but not turn it off until the user trusts that file.
import { promises as fs } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { configFolders, type ConfigFolders } from '../../test-support/config-folders.js';
import { wideningReason } from './project-narrowing.js';
import { resolveMemoryConfig } from './resolve-config.js';

let folders: ConfigFolders;
const resolveWith = (project: unknown, user?: unknown) => folders.resolveWith(project, user);

beforeEach(async () => {
  folders = await configFolders('stale-setting-');
});

describe('recall.stale in the configuration', () => {
  it('defaults to mark; an untrusted project file may choose drop but not off', async () => {
    expect((await resolveWith({})).settings.recall.stale).toBe('mark');
    expect((await resolveWith({ recall: { stale: 'drop' } })).settings.recall.stale).toBe('drop');
    const off = await resolveWith({ recall: { stale: 'off' } });
    expect(off.settings.recall.stale).toBe('mark');
    expect(off.ignored.map((entry) => entry.key)).toContain('recall.stale');
  });

  it('lets the user file turn it off, and names a bad value', async () => {
    expect((await resolveWith({}, { recall: { stale: 'off' } })).settings.recall.stale).toBe('off');
    await fs.writeFile(folders.projectFile, JSON.stringify({ recall: { stale: 'hide' } }));
    const resolution = await resolveMemoryConfig({ workspaceFolder: folders.repo, env: folders.env });
    // A project file's bad value is ignored and named, never fatal.
    expect(resolution.ok).toBe(true);
    if (resolution.ok) expect(resolution.config.ignored).toEqual([expect.objectContaining({ file: folders.projectFile, key: 'recall.stale' })]);
  });

  it('orders the modes drop < mark < off', () => {
    expect(wideningReason('recall.stale', 'drop', 'mark')).toBeUndefined();
    expect(wideningReason('recall.stale', 'mark', 'off')).toBeUndefined();
    expect(wideningReason('recall.stale', 'mark', 'drop')).toMatch(/more strictly/);
  });
});
