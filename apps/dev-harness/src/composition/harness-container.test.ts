import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { ConsentStore, MemoryGate, type ConsentStore as ConsentStoreType, type MemoryGate as MemoryGateType } from '@graphiti-memory/memory-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommand } from '../cli/command-runner.js';
import { capturedTerminal } from '../test-support/captured-terminal.js';
import { openHarnessMemory } from './harness-container.js';

let emulator: RunningEmulator;
let folder: string;

beforeEach(async () => {
  emulator = await startEmulator({ processingDelayMs: 1 });
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'harness-container-'));
});

afterEach(async () => {
  await emulator.close();
  await fs.rm(folder, { recursive: true, force: true });
});

describe('openHarnessMemory', () => {
  it('grants consent for exactly the endpoint, so the gate is open, and keeps state in --state-dir', async () => {
    const terminal = capturedTerminal({ cwd: folder });
    let seen: { gate: ReturnType<MemoryGateType['evaluate']>; consent: string | undefined; stateDirectory: string } | undefined;
    const exitCode = await runCommand({ terminal }, { endpoint: emulator.url, stateDir: path.join(folder, 'state') }, async (context) => {
      const memory = await openHarnessMemory(context);
      seen = {
        gate: memory.container.get<MemoryGateType>(MemoryGate).evaluate(),
        consent: memory.container.get<ConsentStoreType>(ConsentStore).get()?.endpoint,
        stateDirectory: memory.stateDirectory,
      };
      return 0;
    });
    expect(exitCode).toBe(0);
    expect(seen?.gate.open).toBe(true);
    expect(seen?.consent).toBe(emulator.url);
    expect(seen?.stateDirectory).toBe(path.join(folder, 'state'));
    const files = await fs.readdir(path.join(folder, 'state'));
    expect(files).toEqual(expect.arrayContaining(['workspaces', 'endpoints']));
  });

  it('uses a temporary state folder for the in-process emulator and removes it afterwards', async () => {
    const terminal = capturedTerminal({ cwd: folder });
    let stateDirectory = '';
    await runCommand({ terminal, defaultStateDir: path.join(folder, 'unused') }, {}, async (context) => {
      const memory = await openHarnessMemory(context, { emulator: { whenNoEndpoint: true } });
      stateDirectory = memory.stateDirectory;
      expect(memory.temporaryState).toBe(true);
      return 0;
    });
    expect(stateDirectory.startsWith(os.tmpdir())).toBe(true);
    await expect(fs.stat(stateDirectory)).rejects.toThrow();
    await expect(fs.stat(path.join(folder, 'unused'))).rejects.toThrow();
  });

  it('without an endpoint, and not asked for the emulator, fails with the next step and opens nothing', async () => {
    const terminal = capturedTerminal({ cwd: folder });
    const exitCode = await runCommand({ terminal, defaultStateDir: path.join(folder, 'unused') }, {}, async (context) => {
      await openHarnessMemory(context);
      return 0;
    });
    expect(exitCode).toBe(1);
    expect(terminal.err()).toContain('graphiti-harness setup');
    expect(terminal.err()).not.toContain('EMULATOR');
    await expect(fs.stat(path.join(folder, 'unused'))).rejects.toThrow();
  });
});
