import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { activateExtension, waitFor, type Harness } from '../test-support/extension-harness.js';
import { ALLOW } from '../consent/consent-flow.js';
import { answerMessages, updateSettings } from '../test-support/vscode-double.js';
import { CaptureContribution } from './capture-contribution.js';
import { claudeCodeFolderOf } from './claude-code-folders.js';

let harness: Harness | undefined;
const temporaryFolders: string[] = [];
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
  vi.unstubAllEnvs();
  for (const folder of temporaryFolders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
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

function messagesOf(harness: Harness, roleType: 'user' | 'assistant'): string[] {
  return harness.emulator.requests
    .filter((entry) => entry.path === '/messages')
    .flatMap((entry) => (entry.body as { messages: { role_type: string; content: string }[] }).messages)
    .filter((message) => message.role_type === roleType)
    .map((message) => message.content);
}

function userMessages(harness: Harness): string[] {
  return messagesOf(harness, 'user');
}

function groupIds(harness: Harness): string[] {
  return [...new Set(harness.emulator.requests.filter((entry) => entry.path === '/messages').map((entry) => (entry.body as { group_id: string }).group_id))];
}

/** Lines as Claude Code appends them: a prompt, then the assistant's answer. */
function claudeCodeTurn(sessionId: string, id: string, prompt: string, answer: string, second: number): string {
  const base = { isSidechain: false, userType: 'external', cwd: '/work/project', sessionId, version: '2.0.61' };
  const at = (offset: number) => new Date(Date.UTC(2026, 10, 3, 9, 0, second + offset)).toISOString();
  return [
    { ...base, type: 'user', parentUuid: null, uuid: `${id}-u`, timestamp: at(0), message: { role: 'user', content: prompt } },
    { ...base, type: 'assistant', parentUuid: `${id}-u`, uuid: `${id}-a`, timestamp: at(1), message: { role: 'assistant', content: [{ type: 'text', text: answer }], stop_reason: 'end_turn' } },
  ]
    .map((line) => `${JSON.stringify(line)}\n`)
    .join('');
}

/** Session `c0ffee`'s transcript in a Claude Code config folder of the test's own, for the workspace `/work/project`. */
function claudeCodeSessionFile(): string {
  const config = fs.mkdtempSync(path.join(os.tmpdir(), 'graphiti-memory-claude-'));
  temporaryFolders.push(config);
  vi.stubEnv('CLAUDE_CONFIG_DIR', config);
  const folder = claudeCodeFolderOf('/work/project', path.join(config, 'projects'));
  fs.mkdirSync(folder, { recursive: true });
  return path.join(folder, 'c0ffee.jsonl');
}

describe('capture.vscodeChat', () => {
  it('ingests each finished turn of any participant once; cancelled turns, drafts and @memory turns are skipped', async () => {
    harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true, 'graphitiMemory.capture.vscodeChat': true, 'graphitiMemory.capture.granularity': 'turn', 'graphitiMemory.scopes': 'workspace' }, consented: true });
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
    harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true, 'graphitiMemory.capture.vscodeChat': true, 'graphitiMemory.capture.granularity': 'turn' }, consented: true });
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

  it('reads a session once it went quiet, without a manual scan', async () => {
    harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true, 'graphitiMemory.capture.vscodeChat': true, 'graphitiMemory.capture.granularity': 'turn', 'graphitiMemory.scopes': 'workspace' }, consented: true });
    const folder = path.join(harness.context.workspaceStorageFolder, 'chatSessions');
    fs.mkdirSync(folder, { recursive: true });
    const capture = harness.container.get(CaptureContribution);
    // The folder appeared after activation: the scan starts its watcher (the harness looks for it only every minute).
    expect(await capture.scanNow()).toBe(0);
    fs.writeFileSync(path.join(folder, 'session-1.jsonl'), sessionLog());
    await waitFor(() => userMessages(harness!).length === 2, 5000, 'two turns sent');
  });

  it('keeps what it handed over across a restart: nothing sent twice, nothing written meanwhile skipped', async () => {
    harness = await activateExtension({
      settings: { 'graphitiMemory.enabled': true, 'graphitiMemory.capture.vscodeChat': true, 'graphitiMemory.capture.granularity': 'turn', 'graphitiMemory.scopes': 'session', 'graphitiMemory.groupIdStrategy': 'raw' },
      consented: true,
    });
    const folder = path.join(harness.context.workspaceStorageFolder, 'chatSessions');
    const file = path.join(folder, 'session-1.jsonl');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(file, sessionLog());
    const capture = harness.container.get(CaptureContribution);
    await capture.scanNow();
    await waitFor(() => userMessages(harness!).length === 2, 5000, 'two turns sent');
    expect(harness.context.workspaceState.keys().some((key) => key.includes('transcript-offset'))).toBe(true);
    // The session's id is its scope, tagged with a hash of the user's key (one person's own group).
    expect(groupIds(harness)).toEqual([expect.stringMatching(/^gm_session_session-1_u[0-9a-f]{12}$/)]);

    updateSettings({ 'graphitiMemory.capture.vscodeChat': false });
    await capture.stopAll();
    fs.appendFileSync(file, `${JSON.stringify({ kind: 2, k: ['requests'], v: [request('request_5', 'Which region?', 'Frankfurt.', 1)] })}\n`);
    updateSettings({ 'graphitiMemory.capture.vscodeChat': true, 'graphitiMemory.capture.granularity': 'turn' });
    // A new watcher, with only the stored offsets and turn ids to go by: it hands over the new turn alone.
    await capture.scanNow();
    await waitFor(() => userMessages(harness!).length === 3, 5000, 'the new turn sent');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await harness.ingestion()).stats().counters.turns).toBe(3);
    expect(userMessages(harness)).toHaveLength(3);
    expect(userMessages(harness).join('\n')).toContain('Which region?');
  });

  it('ingests only the newest capture.backfillTurns turns of a session it meets for the first time', async () => {
    harness = await activateExtension({
      settings: { 'graphitiMemory.enabled': true, 'graphitiMemory.capture.vscodeChat': true, 'graphitiMemory.capture.granularity': 'turn', 'graphitiMemory.scopes': 'workspace', 'graphitiMemory.capture.backfillTurns': 1 },
    });
    // The session exists before capture starts (memory waits for consent until then).
    const folder = path.join(harness.context.workspaceStorageFolder, 'chatSessions');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'session-1.jsonl'), sessionLog());
    answerMessages(ALLOW);
    expect((await harness.command<{ answer: string }>('graphitiMemory.enable')).answer).toBe('granted');
    const capture = harness.container.get(CaptureContribution);
    await waitFor(async () => (await capture.scanNow(), userMessages(harness!).length === 1), 5000, 'the newest turn sent');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(userMessages(harness)).toEqual(['Which CI do we use?']);
  });

  it('does not read anything while the setting is off', async () => {
    harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true });
    const folder = path.join(harness.context.workspaceStorageFolder, 'chatSessions');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'session-1.jsonl'), sessionLog());
    expect(await harness.container.get(CaptureContribution).scanNow()).toBe(0);
  });
});

describe('capture.claudeCode', () => {
  it("ingests each turn of the workspace folder's Claude Code sessions once, scoped to the session", async () => {
    const file = claudeCodeSessionFile();
    fs.writeFileSync(file, claudeCodeTurn('c0ffee', 't1', 'Why does the outbox test fail?', 'A stale lock.', 0));
    harness = await activateExtension({
      settings: { 'graphitiMemory.enabled': true, 'graphitiMemory.capture.claudeCode': true, 'graphitiMemory.capture.granularity': 'turn', 'graphitiMemory.scopes': 'session', 'graphitiMemory.groupIdStrategy': 'raw' },
      consented: true,
    });
    // Handed over once the session is quiet (150 ms in tests).
    await waitFor(() => userMessages(harness!).length === 1, 5000, 'the first turn sent');
    fs.appendFileSync(file, claudeCodeTurn('c0ffee', 't2', 'And the fix?', 'Refresh the lock.', 10));
    await waitFor(() => userMessages(harness!).length === 2, 5000, 'the second turn sent');
    expect(await harness.container.get(CaptureContribution).scanNow()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(userMessages(harness)).toEqual(['Why does the outbox test fail?', 'And the fix?']);
    expect(groupIds(harness)).toEqual([expect.stringMatching(/^gm_session_c0ffee_u[0-9a-f]{12}$/)]);
    expect(harness.logText()).not.toContain('outbox test');
  });
});

describe('capture under graphitiMemory.filter', () => {
  it('sends captured Claude Code answers as the filter keeps them: code omitted per kind', async () => {
    const file = claudeCodeSessionFile();
    const code = ['```ts', 'export const lockTimeoutMs = 5_000;', 'export const lockRetries = 3;', 'export const lockStaleMs = 10_000;', 'export const lockName = "outbox";', '```'].join('\n');
    fs.writeFileSync(file, claudeCodeTurn('c0ffee', 't1', 'Why does the outbox test fail?', `A stale lock. Raise the timeout:\n\n${code}`, 0));
    harness = await activateExtension({
      settings: {
        'graphitiMemory.enabled': true,
        'graphitiMemory.capture.claudeCode': true,
        'graphitiMemory.capture.granularity': 'turn',
        'graphitiMemory.scopes': 'session',
        'graphitiMemory.filter': { preset: 'compact', code: 'omit' },
      },
      consented: true,
    });
    const answers = (): string[] => messagesOf(harness!, 'assistant');
    await waitFor(() => answers().length === 1, 5000, 'the answer sent');
    expect(answers()[0]).toContain('A stale lock. Raise the timeout:');
    // Under the default (compact) the block would be `[code: ts, 4 lines]`; omitted, nothing of it is sent.
    expect(answers()[0]).not.toContain('[code:');
    expect(answers()[0]).not.toContain('lockTimeoutMs');
  });

  it('reads with a filter changed while capture runs', async () => {
    const file = claudeCodeSessionFile();
    const code = ['```ts', 'export const lockTimeoutMs = 5_000;', 'export const lockRetries = 3;', 'export const lockStaleMs = 10_000;', 'export const lockName = "outbox";', '```'].join('\n');
    fs.writeFileSync(file, claudeCodeTurn('c0ffee', 't1', 'Why does the outbox test fail?', `A stale lock:\n\n${code}`, 0));
    harness = await activateExtension({
      settings: { 'graphitiMemory.enabled': true, 'graphitiMemory.capture.claudeCode': true, 'graphitiMemory.capture.granularity': 'turn', 'graphitiMemory.scopes': 'session' },
      consented: true,
    });
    const answers = (): string[] => messagesOf(harness!, 'assistant');
    await waitFor(() => answers().length === 1, 5000, 'the first answer sent');
    expect(answers()[0]).toContain('[code: ts, 4 lines]');
    updateSettings({ 'graphitiMemory.filter': { preset: 'compact', code: 'omit' } });
    fs.appendFileSync(file, claudeCodeTurn('c0ffee', 't2', 'And the fix?', `Refresh the lock:\n\n${code}`, 10));
    await waitFor(() => answers().length === 2, 5000, 'the second answer sent');
    expect(answers()[1]).toBe('Refresh the lock:');
  });
});
