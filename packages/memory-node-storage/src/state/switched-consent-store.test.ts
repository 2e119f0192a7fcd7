import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ConsentRecord, ConsentStore } from '@graphiti-memory/memory-core';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../test-support/journal-fixtures.js';
import { FileMemorySwitches } from './memory-switches.js';
import { SwitchedConsentStore } from './switched-consent-store.js';

const endpoint = 'http://127.0.0.1:8000';
const consent: ConsentRecord = { endpoint, grantedAt: '2026-11-25T08:00:00.000Z' };
const granted: ConsentStore = { get: () => consent, grant: async () => {}, revoke: async () => {} };

describe('SwitchedConsentStore', () => {
  it('withdraws the consent as soon as the switches close its workspace or endpoint (after its refresh interval), and gives it back when cleared', async () => {
    const state = await temporaryDirectory();
    const workspace = path.join(state, 'repo');
    const switches = FileMemorySwitches.inStateFolder(state);
    let now = 0;
    const store = new SwitchedConsentStore({ base: granted, switches: FileMemorySwitches.inStateFolder(state), workspaceFolder: workspace, now: () => now });
    expect(store.get()).toEqual(consent);
    await switches.mark({ endpoint, switch: 'revoked' }, 'graphiti-harness');
    expect(store.get()).toEqual(consent);
    now += 100;
    expect(store.get()).toBeUndefined();
    await switches.clear({ endpoint, switch: 'revoked' });
    await switches.mark({ workspace: path.join(workspace, 'inner'), switch: 'off' }, 'vscode');
    now += 100;
    // A mark on a folder inside the workspace does not cover the workspace itself.
    expect(store.get()).toEqual(consent);
    await switches.mark({ workspace, switch: 'untrusted' }, 'vscode');
    now += 100;
    expect(store.get()).toBeUndefined();
  });

  it('stays closed while the switches file cannot be read, and is nothing without the base consent', async () => {
    const state = await temporaryDirectory();
    const switches = FileMemorySwitches.inStateFolder(state);
    await fs.mkdir(path.dirname(switches.filePath), { recursive: true });
    await fs.writeFile(switches.filePath, 'not json');
    expect(new SwitchedConsentStore({ base: granted, switches, workspaceFolder: state }).get()).toBeUndefined();
    const none: ConsentStore = { ...granted, get: () => undefined };
    await fs.rm(switches.filePath);
    expect(new SwitchedConsentStore({ base: none, switches, workspaceFolder: state }).get()).toBeUndefined();
  });
});
