// `recall.stale` in the configuration files: a project file may make the stale check stricter
// (drop, mark) but not turn it off until the user trusts that file.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { userConfigPath } from './config-paths.js';
import { wideningReason } from './project-narrowing.js';
import { resolveMemoryConfig } from './resolve-config.js';

let root: string;
let repo: string;
let env: Record<string, string>;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'stale-setting-'));
  repo = path.join(root, 'repo');
  await fs.mkdir(path.join(repo, '.git'), { recursive: true });
  env = { GRAPHITI_MEMORY_CONFIG_DIR: path.join(root, 'config'), GRAPHITI_MEMORY_STATE_DIR: path.join(root, 'state') };
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function resolveWith(project: unknown, user?: unknown) {
  await fs.writeFile(path.join(repo, '.graphiti-memory.json'), JSON.stringify(project));
  if (user !== undefined) {
    await fs.mkdir(path.dirname(userConfigPath(env)), { recursive: true });
    await fs.writeFile(userConfigPath(env), JSON.stringify(user));
  }
  const resolution = await resolveMemoryConfig({ workspaceFolder: repo, env });
  if (!resolution.ok) throw new Error(resolution.message);
  return resolution.config;
}

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
    await fs.writeFile(path.join(repo, '.graphiti-memory.json'), JSON.stringify({ recall: { stale: 'hide' } }));
    const resolution = await resolveMemoryConfig({ workspaceFolder: repo, env });
    expect(resolution.ok).toBe(false);
    if (!resolution.ok) expect(resolution.message).toContain('recall.stale');
  });

  it('orders the modes drop < mark < off', () => {
    expect(wideningReason('recall.stale', 'drop', 'mark')).toBeUndefined();
    expect(wideningReason('recall.stale', 'mark', 'off')).toBeUndefined();
    expect(wideningReason('recall.stale', 'mark', 'drop')).toMatch(/more strictly/);
  });
});
