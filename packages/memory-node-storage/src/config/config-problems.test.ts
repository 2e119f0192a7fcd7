// What a configuration problem does: a repository's file never stops memory (its bad keys are
// ignored and named), the user's own file fails loudly with the key and the nearest valid key,
// invalid JSON is placed by line and column, and no message advises deleting the user's file.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readConfigFile } from './config-file.js';
import { userConfigPath } from './config-paths.js';
import { DEFAULT_CONFIG_SETTINGS, resolveMemoryConfig } from './resolve-config.js';

let root: string;
let env: Record<string, string | undefined>;
let workspace: string;
let projectFile: string;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'config-problems-'));
  env = { GRAPHITI_MEMORY_CONFIG_DIR: path.join(root, 'config'), GRAPHITI_MEMORY_STATE_DIR: path.join(root, 'state') };
  workspace = path.join(root, 'repo');
  await fs.mkdir(path.join(workspace, '.git'), { recursive: true });
  await fs.mkdir(path.join(root, 'config'), { recursive: true });
  projectFile = path.join(workspace, '.graphiti-memory.json');
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const userFile = (): string => userConfigPath(env);
const consent = { endpoint: 'http://127.0.0.1:8000', grantedAt: '2026-11-28T00:00:00.000Z', by: 'graphiti-harness' };

describe('a project file', () => {
  it('has an unknown key ignored and named with the nearest valid key; the rest of it still narrows', async () => {
    await fs.writeFile(userFile(), JSON.stringify({ enabled: true, endpoint: 'http://127.0.0.1:8000', consent }));
    await fs.writeFile(projectFile, JSON.stringify({ recall: { maxFacs: 3, maxFacts: 4 }, enabeld: false }));
    const resolution = await resolveMemoryConfig({ workspaceFolder: workspace, env });
    expect(resolution.ok).toBe(true);
    if (!resolution.ok) return;
    expect(resolution.config.enabled).toBe(true);
    expect(resolution.config.settings.recall.maxFacts).toBe(4);
    expect(resolution.config.ignored).toEqual(
      expect.arrayContaining([
        { file: projectFile, key: 'recall.maxFacs', why: 'unknown key `recall.maxFacs`; did you mean `recall.maxFacts`?' },
        { file: projectFile, key: 'enabeld', why: 'unknown key `enabeld`; did you mean `enabled`?' },
      ]),
    );
  });

  it('with invalid JSON is ignored whole and placed by line and column, never fatal', async () => {
    await fs.writeFile(userFile(), JSON.stringify({ enabled: true, endpoint: 'http://127.0.0.1:8000', consent }));
    await fs.writeFile(projectFile, '{\n  "enabled": false,\n  "recall": { "maxFacts": 3, }\n}\n');
    const resolution = await resolveMemoryConfig({ workspaceFolder: workspace, env });
    expect(resolution.ok).toBe(true);
    if (!resolution.ok) return;
    expect(resolution.config.enabled).toBe(true);
    expect(resolution.config.ignored).toEqual([{ file: projectFile, key: '*', why: expect.stringMatching(/^is not valid JSON \(line 3, column 30: .+\); the whole file is ignored$/) }]);
  });

  it('never sets delivery settings (maxAttempts, maxAgeHours, maxQueueSize, maxBatchSize), trusted or not: ignored and named', async () => {
    await fs.writeFile(userFile(), JSON.stringify({ maxAttempts: 9 }));
    await fs.writeFile(projectFile, JSON.stringify({ maxAttempts: 1, maxAgeHours: 1, maxQueueSize: 10, maxBatchSize: 1 }));
    const resolution = await resolveMemoryConfig({ workspaceFolder: workspace, env });
    expect(resolution.ok).toBe(true);
    if (!resolution.ok) return;
    expect(resolution.config.settings).toMatchObject({ maxAttempts: 9, maxAgeHours: DEFAULT_CONFIG_SETTINGS.maxAgeHours });
    expect(resolution.config.settings.maxQueueSize).toBeGreaterThan(10);
    expect(resolution.config.settings.maxBatchSize).toBeGreaterThan(1);
    expect(resolution.config.ignored.map((entry) => entry.key).sort()).toEqual(['maxAgeHours', 'maxAttempts', 'maxBatchSize', 'maxQueueSize']);
    expect(resolution.config.ignored[0]?.why).toMatch(/only the user config\.json may set it/);
  });
});

describe("the user's config.json", () => {
  it('fails loudly on an unknown key, naming the file, the key and the nearest valid key', async () => {
    await fs.writeFile(userFile(), JSON.stringify({ endpiont: 'http://127.0.0.1:8000' }));
    const resolution = await resolveMemoryConfig({ workspaceFolder: workspace, env });
    expect(resolution.ok).toBe(false);
    if (resolution.ok) return;
    expect(resolution.problems).toEqual([`${userFile()}: unknown key \`endpiont\`; did you mean \`endpoint\`?`]);
  });

  it('with invalid JSON says the line and column, and never advises deleting the file', async () => {
    await fs.writeFile(userFile(), '{\n  "userKey": "abcdefgh-1234",\n  "endpoint": "http://127.0.0.1:8000"\n  "enabled": true\n}\n');
    const read = await readConfigFile(userFile());
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.problems[0]).toMatch(/config\.json: is not valid JSON \(line 4, column 3: comma expected\)/);
    expect(read.problems.join(' ')).not.toMatch(/delete|remove the file/i);
    // Never quotes the text: the file holds the user key.
    expect(read.problems.join(' ')).not.toContain('abcdefgh-1234');
  });

  it('salvaged (for forget, pending, audit, outbox): its valid values apply, each bad one is ignored and named', async () => {
    await fs.writeFile(userFile(), JSON.stringify({ endpoint: 'http://127.0.0.1:8000', userKey: 'user-key-123456', endpiont: 'x', recall: { maxFacts: 500 } }));
    const resolution = await resolveMemoryConfig({ workspaceFolder: workspace, env, userFile: 'salvage' });
    expect(resolution.ok).toBe(true);
    if (!resolution.ok) return;
    expect(resolution.config).toMatchObject({ endpoint: 'http://127.0.0.1:8000', userKey: 'user-key-123456', maxFacts: 10 });
    expect(resolution.config.ignored.map((entry) => [entry.file, entry.key])).toEqual([
      [userFile(), 'endpiont'],
      [userFile(), 'recall.maxFacts'],
    ]);
  });
});
