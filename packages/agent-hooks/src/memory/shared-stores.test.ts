import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '@graphiti-memory/memory-core';
import { sharedStateDirectory } from '@graphiti-memory/memory-node-storage';
import { EndpointGroupRegistry } from './shared-stores.js';

const quiet: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

describe('EndpointGroupRegistry', () => {
  it('keeps one registry file per endpoint, so forgetting on one server leaves what another holds listed', async () => {
    const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'graphiti-registry-'));
    folders.push(storage);
    let endpoint = 'http://a.example:8000';
    const registry = new EndpointGroupRegistry(async () => storage, () => endpoint, quiet);
    registry.record([{ groupId: 'gm_session_aaa', scope: 'session', sessionId: 's1', workspaceKey: 'gm_workspace_w', tool: 'vscode-extension', messages: 2, at: 1 }]);
    await registry.flush();
    expect((await registry.list()).map((record) => record.groupId)).toEqual(['gm_session_aaa']);

    endpoint = 'http://b.example:8000';
    expect(await registry.list()).toEqual([]);
    await registry.remove(['gm_session_aaa']);

    endpoint = 'http://a.example:8000';
    expect((await registry.list()).map((record) => record.groupId)).toEqual(['gm_session_aaa']);
    // A fresh window reads the same file back.
    const reopened = new EndpointGroupRegistry(async () => storage, () => endpoint, quiet);
    expect((await reopened.list()).map((record) => record.groupId)).toEqual(['gm_session_aaa']);
    expect(fs.readdirSync(path.join(storage, 'endpoints'))).toHaveLength(2);
  });
});

describe('sharedStateDirectory', () => {
  it('is GRAPHITI_MEMORY_STATE_DIR, else the user config\'s stateDir, else the harness\'s data folder', async () => {
    const config = fs.mkdtempSync(path.join(os.tmpdir(), 'graphiti-config-'));
    folders.push(config);
    expect(await sharedStateDirectory({ GRAPHITI_MEMORY_STATE_DIR: '/tmp/state-a', GRAPHITI_MEMORY_CONFIG_DIR: config })).toBe('/tmp/state-a');
    expect(await sharedStateDirectory({ GRAPHITI_MEMORY_CONFIG_DIR: config })).toMatch(/graphiti-harness$/);
    fs.writeFileSync(path.join(config, 'config.json'), JSON.stringify({ stateDir: '/tmp/state-b' }));
    expect(await sharedStateDirectory({ GRAPHITI_MEMORY_CONFIG_DIR: config })).toBe('/tmp/state-b');
  });
});
