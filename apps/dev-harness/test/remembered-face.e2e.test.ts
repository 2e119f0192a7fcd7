// `server: auto` without a probe per hook event: the first event probes the endpoint and records the
// face that answered (server-face.json in the endpoint's state folder); later events speak it at
// once, so a prompt sends the emulator its searches and nothing else. A remembered face that proves
// wrong fails that event open and is forgotten, so the next event probes and answers. Real hook
// runs (cold, no hook server) against the emulator over HTTP; what reached it is its request log.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HOOK_SERVER_VARIABLE } from '@graphiti-memory/agent-hooks';
import { hookRunnerFile } from '@graphiti-memory/agent-hooks/runner-files';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { normaliseEndpoint } from '@graphiti-memory/memory-core';
import { FileServerFaceRecord, updateConfigFile, userConfigPath } from '@graphiti-memory/memory-node-storage';
import { additionalContext, installWithFact, loggedRuns, runNode, type ProcessRun } from './hook-processes.js';
import { endHookTest, ensureBuilt, startHookTest, type HookTest } from './hook-server-fixture.js';

const runner = hookRunnerFile();
const COLD = { [HOOK_SERVER_VARIABLE]: 'off' };
const PROMPT = 'Which package manager do we use here?';

let test: HookTest;
let sessions = 0;

/** A cold UserPromptSubmit of a new session (say-it-once would leave a repeated one empty). */
function prompt(): Promise<ProcessRun> {
  const input = { session_id: `session-${++sessions}`, transcript_path: path.join(test.root, 'none.jsonl'), cwd: test.workspace, hook_event_name: 'UserPromptSubmit', prompt: PROMPT };
  return runNode(test, [runner, '--event', 'UserPromptSubmit'], JSON.stringify(input), { env: COLD });
}

function faceRecord(emulator: RunningEmulator): FileServerFaceRecord {
  return FileServerFaceRecord.of(test.stateDir, normaliseEndpoint(emulator.url) ?? emulator.url);
}

/** What a probe sends: REST's /healthcheck, MCP's /health and its get_status. */
function probes(emulator: RunningEmulator): string[] {
  return emulator.requests.filter((request) => request.path === '/healthcheck' || request.path === '/health' || request.route === 'get_status').map((request) => request.path);
}

async function expectAnswered(run: ProcessRun): Promise<void> {
  expect(run, run.stderr).toMatchObject({ exitCode: 0, stderr: '' });
  expect(additionalContext(run)).toContain('We always use pnpm');
  expect((await loggedRuns(test.stateDir)).at(-1)).toMatchObject({ outcome: 'context' });
}

beforeAll(() => ensureBuilt(), 300_000);

beforeEach(async () => {
  test = await startHookTest('hook-face-');
});

afterEach(() => endHookTest(test));

describe('the remembered server face (server: auto)', () => {
  for (const face of ['rest', 'mcp'] as const) {
    it(`probes on the first prompt, records the face, and then sends only the searches (${face})`, async () => {
      const emulator = face === 'rest' ? test.emulator : await startEmulator({ processingDelayMs: 1, face: 'mcp' });
      try {
        await installWithFact(test, emulator);
        const record = faceRecord(emulator);
        await record.forget();
        emulator.clearRequests();
        await expectAnswered(await prompt());
        expect(probes(emulator).length).toBeGreaterThan(0);
        expect(await record.read()).toBe(face);
        // The record: the face and when it was seen, owner-only, none of the prompt or the memory.
        const text = await fs.readFile(record.filePath, 'utf8');
        expect(Object.keys(JSON.parse(text) as object).sort()).toEqual(['kind', 'seenAt']);
        expect(text).not.toMatch(/package manager|pnpm/);
        if (process.platform !== 'win32') expect((await fs.stat(record.filePath)).mode & 0o777).toBe(0o600);

        emulator.clearRequests();
        await expectAnswered(await prompt());
        expect(probes(emulator)).toEqual([]);
        const routes = emulator.requests.map((request) => request.route);
        if (face === 'rest') {
          // Nothing but the recall's searches (one per scope recalled).
          expect(routes.length).toBeGreaterThan(0);
          expect(routes.every((route) => route === 'search')).toBe(true);
        } else {
          // The MCP session's own exchanges (initialize, its notification, the closing DELETE) and the searches.
          expect(routes.filter((route) => route !== 'mcp').every((route) => route === 'search_memory_facts')).toBe(true);
          expect(routes).toContain('search_memory_facts');
        }
      } finally {
        if (emulator !== test.emulator) await emulator.close();
      }
    });
  }

  for (const [wrong, actual] of [
    ['mcp', 'rest'],
    ['rest', 'mcp'],
  ] as const) {
    it(`a wrong remembered face (${wrong} at a ${actual} server) fails that prompt open, is forgotten, and the next prompt probes and answers`, async () => {
      const emulator = actual === 'rest' ? test.emulator : await startEmulator({ processingDelayMs: 1, face: 'mcp' });
      try {
        await installWithFact(test, emulator);
        const record = faceRecord(emulator);
        await record.remember(wrong);
        emulator.clearRequests();
        const failed = await prompt();
        // Failed open: the search missed, so the local tier answers (the promoted fact, labelled cached).
        expect(failed, failed.stderr).toMatchObject({ exitCode: 0, stderr: '' });
        expect(failed.stdout).toContain('cached');
        expect((await loggedRuns(test.stateDir)).at(-1)).toMatchObject({ outcome: 'cached' });
        expect(probes(emulator)).toEqual([]);
        expect(await record.read()).toBeUndefined();

        emulator.clearRequests();
        await expectAnswered(await prompt());
        expect(probes(emulator).length).toBeGreaterThan(0);
        expect(await record.read()).toBe(actual);
      } finally {
        if (emulator !== test.emulator) await emulator.close();
      }
    });
  }

  it('an explicit server setting is never overridden by a record, nor writes one', async () => {
    await installWithFact(test, test.emulator);
    await updateConfigFile(userConfigPath(test.env), { server: 'rest' });
    const record = faceRecord(test.emulator);
    await record.remember('mcp');
    test.emulator.clearRequests();
    await expectAnswered(await prompt());
    expect(await record.read()).toBe('mcp');
    await record.forget();
    await expectAnswered(await prompt());
    expect(await record.read()).toBeUndefined();
  });
});
