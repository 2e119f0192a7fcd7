import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { activateExtension, waitFor, type Harness } from '../test-support/extension-harness.js';
import { CaptureContribution } from './capture-contribution.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

function request(id: string, text: string, answer: string, modelState: number, agent = 'github.copilot.default') {
  return {
    requestId: id,
    timestamp: 1_763_900_000_000,
    message: { text, parts: [{ kind: 'text', text }] },
    agent: { id: agent },
    response: [{ kind: 'mcpServersStarting' }, { value: answer, supportThemeIcons: false }],
    modelState: { value: modelState, completedAt: 1_763_900_001_000 },
  };
}

/** A session log as VS Code writes it: a snapshot, an appended request, a completion set later. */
function sessionLog(version = 3): string {
  const lines = [
    { kind: 0, v: { version, sessionId: 'session-1', creationDate: 1_763_900_000_000, requests: [request('request_1', 'We deploy with Fly.io.', 'Noted.', 1)], inputState: { inputText: 'a draft' } } },
    { kind: 2, k: ['requests'], v: [request('request_2', 'Cancelled question', 'Partial', 0)] },
    { kind: 1, k: ['requests', 1, 'modelState'], v: { value: 2 } },
    { kind: 2, k: ['requests'], v: [request('request_3', 'Which CI do we use?', 'GitHub Actions.', 0)] },
    { kind: 1, k: ['requests', 2, 'modelState'], v: { value: 1, completedAt: 1_763_900_002_000 } },
    { kind: 2, k: ['requests'], v: [request('request_4', '@memory hi', 'Hello.', 1, 'graphiti-memory.memory')] },
  ];
  return lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
}

function userMessages(harness: Harness): string[] {
  return harness.emulator.requests
    .filter((entry) => entry.path === '/messages')
    .flatMap((entry) => (entry.body as { messages: { role_type: string; content: string }[] }).messages)
    .filter((message) => message.role_type === 'user')
    .map((message) => message.content);
}

describe('capture.vscodeChat', () => {
  it('ingests each finished turn of any participant once; cancelled turns, drafts and @memory turns are skipped', async () => {
    harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true, 'graphitiMemory.capture.vscodeChat': true, 'graphitiMemory.scopes': 'workspace' }, consented: true });
    const folder = path.join(harness.context.workspaceStorageFolder, 'chatSessions');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'session-1.jsonl'), sessionLog());
    const capture = harness.container.get(CaptureContribution);
    // The folder watcher may have read the file already; either way exactly two turns are new.
    await capture.scanNow();
    await waitFor(() => userMessages(harness!).length === 2, 5000, 'two turns sent');
    // Appending to the file re-reads it: the turns already seen are not sent again.
    fs.appendFileSync(path.join(folder, 'session-1.jsonl'), `${JSON.stringify({ kind: 1, k: ['customTitle'], v: 'Deploys' })}\n`);
    expect(await capture.scanNow()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const sent = userMessages(harness);
    expect(sent).toHaveLength(2);
    expect(sent.join('\n')).toContain('We deploy with Fly.io.');
    expect(sent.join('\n')).toContain('Which CI do we use?');
    expect(sent.join('\n')).not.toContain('Cancelled question');
    expect(sent.join('\n')).not.toContain('@memory hi');
  });

  it('skips a file of an unknown format version with one log line', async () => {
    harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true, 'graphitiMemory.capture.vscodeChat': true }, consented: true });
    const folder = path.join(harness.context.workspaceStorageFolder, 'chatSessions');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'future.jsonl'), sessionLog(99));
    const capture = harness.container.get(CaptureContribution);
    expect(await capture.scanNow()).toBe(0);
    fs.appendFileSync(path.join(folder, 'future.jsonl'), '\n');
    expect(await capture.scanNow()).toBe(0);
    expect(harness.logText().match(/unknown format version/g)).toHaveLength(1);
    expect(harness.logText()).not.toContain('Fly.io');
  });

  it('does not read anything while the setting is off', async () => {
    harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true });
    const folder = path.join(harness.context.workspaceStorageFolder, 'chatSessions');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'session-1.jsonl'), sessionLog());
    expect(await harness.container.get(CaptureContribution).scanNow()).toBe(0);
  });
});
