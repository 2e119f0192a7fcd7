import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../test-support/journal-fixtures.js';
import { closedBySwitches, FileMemorySwitches, NO_SWITCHES } from './memory-switches.js';
import { DamagedStateFileError } from '../stores/locked-json-file.js';
import { sharedStateFiles } from './state-layout.js';

const endpoint = 'http://127.0.0.1:8000';

async function switchesIn(): Promise<{ switches: FileMemorySwitches; state: string }> {
  const state = await temporaryDirectory();
  return { switches: FileMemorySwitches.inStateFolder(state), state };
}

describe('FileMemorySwitches', () => {
  it.each([
    ['not JSON', '{"version": 1, "everywhere": {"off": '],
    ['not a switches file', '{"version": 7}'],
  ])('a damaged file (%s) fails closed: read says so, and no change sets it aside or empties it', async (_name, damaged) => {
    const { switches, state } = await switchesIn();
    await fs.writeFile(switches.filePath, damaged);
    const read = await switches.read();
    expect(read.ok).toBe(false);
    await expect(switches.clear({ endpoint, switch: 'revoked' })).rejects.toThrow(/damaged.*memory stays off/);
    await expect(switches.mark({ workspace: path.join(state, 'repo'), switch: 'off' }, 'vscode')).rejects.toThrow(DamagedStateFileError);
    expect(await fs.readFile(switches.filePath, 'utf8')).toBe(damaged);
    expect(await fs.readdir(state)).toEqual(['memory-switches.json']);
  });

  it('lives in the state folder as memory-switches.json (0600) and reads as none while missing', async () => {
    const { switches, state } = await switchesIn();
    expect(switches.filePath).toBe(sharedStateFiles(state).memorySwitches);
    expect(await switches.read()).toEqual({ ok: true, switches: NO_SWITCHES });
    expect(await switches.mark({ workspace: path.join(state, 'repo'), switch: 'revoked' }, 'vscode')).toBe(true);
    if (process.platform !== 'win32') expect((await fs.stat(switches.filePath)).mode & 0o777).toBe(0o600);
  });

  it('closes a workspace, the folders inside it and no other; clearing opens it again, for every reader', async () => {
    const { switches, state } = await switchesIn();
    const repo = path.join(state, 'repo');
    const other = path.join(state, 'repo-two');
    const reader = FileMemorySwitches.inStateFolder(state);
    await switches.mark({ workspace: repo, switch: 'revoked' }, 'vscode');
    const read = await reader.read();
    if (!read.ok) throw new Error(read.problem);
    expect(closedBySwitches(read.switches, repo, endpoint)).toMatchObject({ reason: 'no-consent' });
    expect(closedBySwitches(read.switches, path.join(repo, 'packages', 'a'), endpoint)).toMatchObject({ reason: 'no-consent' });
    expect(closedBySwitches(read.switches, other, endpoint)).toBeUndefined();
    expect(closedBySwitches(read.switches, state, endpoint)).toBeUndefined();
    expect(await switches.mark({ workspace: repo, switch: 'revoked' }, 'vscode')).toBe(false);
    expect(await reader.clear({ workspace: repo, switch: 'revoked' })).toBe(true);
    const cleared = switches.readSync();
    expect(cleared.ok && closedBySwitches(cleared.switches, repo, endpoint)).toBeUndefined();
    expect(cleared).toEqual({ ok: true, switches: NO_SWITCHES });
  });

  it('says which switch closes: off over untrusted over revoked; an endpoint revoke and off everywhere cover every folder', async () => {
    const { switches, state } = await switchesIn();
    const repo = path.join(state, 'repo');
    await switches.mark({ workspace: repo, switch: 'revoked' }, 'vscode');
    await switches.mark({ workspace: repo, switch: 'untrusted' }, 'vscode');
    const current = async () => {
      const read = await switches.read();
      if (!read.ok) throw new Error(read.problem);
      return read.switches;
    };
    expect(closedBySwitches(await current(), repo, endpoint)?.reason).toBe('untrusted');
    await switches.mark({ workspace: repo, switch: 'off' }, 'vscode');
    expect(closedBySwitches(await current(), repo, endpoint)?.reason).toBe('disabled');
    await switches.mark({ endpoint: `${endpoint}/`, switch: 'revoked' }, 'graphiti-harness');
    const elsewhere = path.join(state, 'elsewhere');
    expect(closedBySwitches(await current(), elsewhere, endpoint)).toMatchObject({ reason: 'no-consent', detail: expect.stringContaining('endpoint') });
    expect(closedBySwitches(await current(), elsewhere, 'http://other:9000')).toBeUndefined();
    await switches.mark({ everywhere: 'off' }, 'vscode');
    expect(closedBySwitches(await current(), elsewhere, 'http://other:9000')?.reason).toBe('disabled');
    await switches.clear({ everywhere: 'off' });
    expect(closedBySwitches(await current(), elsewhere, 'http://other:9000')).toBeUndefined();
  });

  it('reports a file that is not a switches file (callers then keep memory off) and rejects relative folders and bad endpoints', async () => {
    const { switches } = await switchesIn();
    await fs.mkdir(path.dirname(switches.filePath), { recursive: true });
    await fs.writeFile(switches.filePath, '{ torn');
    expect(await switches.read()).toMatchObject({ ok: false, problem: expect.stringContaining('not JSON') });
    await fs.writeFile(switches.filePath, JSON.stringify({ version: 7 }));
    expect(switches.readSync()).toMatchObject({ ok: false, problem: expect.stringContaining('version 1') });
    await expect(switches.mark({ workspace: 'relative/repo', switch: 'off' }, 'test')).rejects.toThrow(/absolute path/);
    await expect(switches.mark({ endpoint: 'not a url', switch: 'revoked' }, 'test')).rejects.toThrow(/not an endpoint URL/);
  });
});
