import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '@graphiti-memory/memory-core';
import { sharedStateDirectory } from '@graphiti-memory/memory-node-storage';
import { EndpointForgetLedger, EndpointGroupRegistry } from './shared-stores.js';

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

describe('EndpointForgetLedger', () => {
  it('keeps what forgets owe per endpoint, shared by every tool opening the same state folder; with no state folder it reads empty and refuses to record', async () => {
    const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'graphiti-forgotten-'));
    folders.push(storage);
    let endpoint = 'http://a.example:8000';
    const harness = new EndpointForgetLedger(async () => storage, () => endpoint, quiet);
    const extension = new EndpointForgetLedger(async () => storage, () => 'http://a.example:8000', quiet);
    expect((await extension.read()).groups).toEqual([]);
    await harness.forgetGroups(['gm_workspace_w'], 5);
    expect((await extension.read()).groups).toEqual([{ groupId: 'gm_workspace_w', forgottenAt: 5, deletionOwed: true }]);
    endpoint = 'http://b.example:8000';
    expect((await harness.read()).groups).toEqual([]);

    const nowhere = new EndpointForgetLedger(async () => undefined, () => endpoint, quiet);
    expect((await nowhere.read()).groups).toEqual([]);
    await expect(nowhere.forgetGroups(['gm_workspace_w'], 5)).rejects.toThrow(/state folder/);
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
