import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileMemorySwitches, type MemorySwitchesRecord } from '@graphiti-memory/memory-node-storage';
import { describe, expect, it } from 'vitest';
import { MemorySwitchRecorder } from './memory-switch-recorder.js';

async function recorder(folders: readonly string[] = ['/work/project', '/work/library']) {
  const stateDirectory = await fs.mkdtemp(path.join(os.tmpdir(), 'switch-recorder-'));
  const stops: string[] = [];
  const recording = new MemorySwitchRecorder({
    environment: { GRAPHITI_MEMORY_STATE_DIR: stateDirectory, GRAPHITI_MEMORY_CONFIG_DIR: path.join(stateDirectory, 'config') },
    folders: () => folders,
    stop: async (_env, state) => {
      stops.push(state);
      return { servers: 0, drainer: false };
    },
  });
  const switches = async (): Promise<MemorySwitchesRecord> => {
    const read = await FileMemorySwitches.inStateFolder(stateDirectory).read();
    if (!read.ok) throw new Error(read.problem);
    return read.switches;
  };
  return { recording, stops, switches, stateDirectory };
}

describe('MemorySwitchRecorder', () => {
  it('marks consent revoked for every folder of the window and stops the hook processes; a new consent clears it without stopping', async () => {
    const { recording, stops, switches, stateDirectory } = await recorder();
    await recording.consentChanged(false);
    expect(Object.keys((await switches()).workspaces).sort()).toEqual([path.resolve('/work/library'), path.resolve('/work/project')]);
    expect((await switches()).workspaces[path.resolve('/work/project')]?.revoked?.by).toBe('vscode');
    expect(stops).toEqual([stateDirectory]);
    await recording.consentChanged(false);
    expect(stops).toHaveLength(1);
    await recording.consentChanged(true);
    expect((await switches()).workspaces).toEqual({});
    expect(stops).toHaveLength(1);
  });

  it('mirrors graphitiMemory.enabled: a user value off is everywhere, a workspace value off this workspace, unset clears', async () => {
    const { recording, stops, switches } = await recorder(['/work/project']);
    await recording.enabledChanged({ globalValue: false });
    expect((await switches()).everywhere.off).toBeDefined();
    expect((await switches()).workspaces).toEqual({});
    await recording.enabledChanged({ globalValue: true, workspaceValue: false });
    expect((await switches()).everywhere.off).toBeUndefined();
    expect((await switches()).workspaces[path.resolve('/work/project')]?.off).toBeDefined();
    // The folder value wins over the workspace value.
    await recording.enabledChanged({ workspaceValue: false, workspaceFolderValue: true });
    expect((await switches()).workspaces).toEqual({});
    // Off by default: a value never set switches nothing off.
    await recording.enabledChanged({});
    expect(await switches()).toMatchObject({ everywhere: {}, workspaces: {} });
    expect(stops).toHaveLength(2);
  });

  it('marks an untrusted window and clears the mark once trusted', async () => {
    const { recording, switches } = await recorder(['/work/project']);
    await recording.trustChanged(false);
    expect((await switches()).workspaces[path.resolve('/work/project')]?.untrusted).toBeDefined();
    await recording.trustChanged(true);
    expect((await switches()).workspaces).toEqual({});
  });

  it('Disconnect revokes the endpoints (skipping what is not a URL) and always stops the hook processes; Connect clears', async () => {
    const { recording, stops, switches } = await recorder([]);
    await recording.endpointRevoked(['http://127.0.0.1:8000/', 'not a url'], true);
    expect(Object.keys((await switches()).endpoints)).toEqual(['http://127.0.0.1:8000']);
    await recording.endpointRevoked([], true);
    expect(stops).toHaveLength(2);
    await recording.endpointRevoked(['http://127.0.0.1:8000'], false);
    expect((await switches()).endpoints).toEqual({});
    expect(stops).toHaveLength(2);
  });

  it('writes in the order asked, and settles only after the last write (a quick off → on ends on)', async () => {
    const { recording, switches } = await recorder(['/work/project']);
    void recording.consentChanged(false);
    void recording.consentChanged(true);
    await recording.settled();
    expect((await switches()).workspaces).toEqual({});
    void recording.consentChanged(true);
    void recording.consentChanged(false);
    await recording.settled();
    expect((await switches()).workspaces[path.resolve('/work/project')]?.revoked).toBeDefined();
  });
});
