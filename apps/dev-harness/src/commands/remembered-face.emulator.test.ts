// Memory commands with `--server auto` (the default) and a state folder start from the face the
// endpoint answered with before (the record the hooks share) instead of probing both faces each
// run; a remembered face the server no longer has costs the command nothing (its preflight asks
// again, which probes) and is replaced. `health` always finds the face out.
import path from 'node:path';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { normaliseEndpoint } from '@graphiti-memory/memory-core';
import { FileServerFaceRecord } from '@graphiti-memory/memory-node-storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeEmulatorCommands, openEmulatorCommands, runCommand, type EmulatorCommandsFixture } from '../test-support/emulator-commands.js';

let fixture: EmulatorCommandsFixture;

beforeEach(async () => {
  fixture = await openEmulatorCommands('harness-face-');
});

afterEach(() => closeEmulatorCommands(fixture));

function record(emulator: RunningEmulator): FileServerFaceRecord {
  return FileServerFaceRecord.of(path.join(fixture.folder, 'state'), normaliseEndpoint(emulator.url) ?? emulator.url);
}

const recall = (emulator: RunningEmulator) => runCommand(fixture.folder, ['recall', 'what do we use for installs', '--scopes', 'workspace', '--json', '--endpoint', emulator.url]);
const paths = (emulator: RunningEmulator, wanted: string) => emulator.requests.filter((request) => request.path === wanted).length;

describe('the remembered server face in harness commands', () => {
  for (const face of ['rest', 'mcp'] as const) {
    it(`the first command probes and records the face; the next one probes no more (${face})`, async () => {
      const emulator = face === 'rest' ? fixture.emulator : await startEmulator({ processingDelayMs: 1, face: 'mcp' });
      try {
        expect((await recall(emulator)).exitCode).toBe(0);
        expect(await record(emulator).read()).toBe(face);
        emulator.clearRequests();
        expect((await recall(emulator)).exitCode).toBe(0);
        // What is left is the preflight's own health check on the face in use.
        if (face === 'rest') expect([paths(emulator, '/healthcheck'), paths(emulator, '/health')]).toEqual([1, 0]);
        else expect([paths(emulator, '/healthcheck'), paths(emulator, '/health')]).toEqual([0, 1]);
      } finally {
        if (emulator !== fixture.emulator) await emulator.close();
      }
    });
  }

  it('a wrong remembered face costs the command nothing and is replaced', async () => {
    const { emulator } = fixture;
    await record(emulator).remember('mcp');
    const run = await recall(emulator);
    expect(run.exitCode, run.err).toBe(0);
    expect(await record(emulator).read()).toBe('rest');
  });

  it('health finds the face out whatever is remembered, and records nothing', async () => {
    const { emulator } = fixture;
    await record(emulator).remember('mcp');
    const run = await runCommand(fixture.folder, ['health', '--json', '--endpoint', emulator.url]);
    expect(run.exitCode, run.err).toBe(0);
    expect(run.json()).toMatchObject({ ok: true, server: 'rest' });
    expect(await record(emulator).read()).toBe('mcp');
  });
});
