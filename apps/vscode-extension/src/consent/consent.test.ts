import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CaptureContribution } from '../capture/capture-contribution.js';
import { activateExtension, waitFor } from '../test-support/extension-harness.js';
import { FileMemorySwitches, type MemorySwitchesRecord } from '@graphiti-memory/memory-node-storage';
import { answerMessages, grantWorkspaceTrust, testHost, updateSettings, windowRegistry } from '../test-support/vscode-double.js';
import { ALLOW, DONT_SEND, TURN_OFF } from './consent-flow.js';


function consentDialogs() {
  return testHost().shownMessages.filter((message) => message.modal && message.items.includes(ALLOW));
}

describe('consent', () => {
  it('asks when memory is turned on, naming the endpoint and what is sent; declining sends nothing', async () => {
    const harness = await activateExtension();
    answerMessages(TURN_OFF);
    updateSettings({ 'graphitiMemory.enabled': true });
    await waitFor(() => consentDialogs().length === 1, 2000, 'the consent dialog');
    const dialog = consentDialogs()[0];
    expect(dialog?.message).toContain(harness.emulator.url);
    expect(dialog?.detail).toContain('The text of your messages and the answers');
    expect(dialog?.detail).toContain('Nothing else');
    await waitFor(() => testHost().settings.get('graphitiMemory.enabled') === false, 2000, 'the setting turned off');
    // A chat request and a promotion after declining: still nothing reaches Graphiti.
    await harness.command('graphitiMemory.promote', { kind: 'decision', scope: 'workspace', text: 'We use zod.' });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(harness.emulator.requests).toEqual([]);
    expect(harness.context.workspaceState.get('graphitiMemory.consent')).toBeUndefined();
  });

  it('grants consent for the endpoint through the Enable command and lets traffic through', async () => {
    const harness = await activateExtension();
    answerMessages(ALLOW);
    const result = await harness.command<{ answer: string; enabled: boolean }>('graphitiMemory.enable');
    expect(result).toMatchObject({ answer: 'granted', enabled: true });
    expect(testHost().settings.get('graphitiMemory.enabled')).toBe(true);
    expect(harness.context.workspaceState.get<{ endpoint: string }>('graphitiMemory.consent')?.endpoint).toBe(harness.emulator.url);
    await harness.command('graphitiMemory.promote', { kind: 'decision', scope: 'workspace', text: 'We deploy with Fly.io.' });
    await waitFor(() => harness!.emulator.requests.some((request) => request.path === '/messages'), 5000, 'a /messages request');
  });

  it('asks again when the endpoint changes, and revoking closes the gate', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true });
    expect(consentDialogs()).toHaveLength(0);
    answerMessages(undefined);
    updateSettings({ 'graphitiMemory.endpoint': 'http://127.0.0.1:9' });
    await waitFor(() => consentDialogs().length === 1, 2000, 'a second consent dialog');
    updateSettings({ 'graphitiMemory.endpoint': harness.emulator.url });
    const revoked = await harness.command<{ ok: boolean }>('graphitiMemory.revokeConsent');
    expect(revoked.ok).toBe(true);
    const status = await harness.command<{ state: string; summary: string }>('graphitiMemory.showStatus');
    // A revoke is the user's choice: "off — consent revoked", not an amber to-do.
    expect(status.state).toBe('revoked');
    expect(status.summary).toContain('you revoked consent');
    expect(windowRegistry().statusBarItems[0]?.text).toContain('Memory: off — consent revoked');
    expect(windowRegistry().statusBarItems[0]?.backgroundColor).toBeUndefined();
  });

  it('asks about the new endpoint after a dialog for the old one is answered', async () => {
    const harness = await activateExtension();
    const url = harness.emulator.url;
    let dismissFirst: () => void = () => undefined;
    answerMessages(
      () => new Promise<undefined>((resolve) => (dismissFirst = () => resolve(undefined))),
      (shown) => (shown.message.includes(url) ? ALLOW : undefined),
    );
    updateSettings({ 'graphitiMemory.enabled': true, 'graphitiMemory.endpoint': 'http://127.0.0.1:9' });
    await waitFor(() => consentDialogs().length === 1, 2000, 'a dialog for the unreachable endpoint');
    // The user goes back to the first endpoint while the dialog is still open, then dismisses it.
    updateSettings({ 'graphitiMemory.endpoint': url });
    dismissFirst();
    await waitFor(() => consentDialogs().length === 2, 2000, 'a dialog for the endpoint now configured');
    expect(consentDialogs().map((dialog) => dialog.message.includes(url))).toEqual([false, true]);
    await waitFor(() => harness!.context.workspaceState.get<{ endpoint: string }>('graphitiMemory.consent')?.endpoint === url, 2000, 'consent for it');
  });

  it('does not ask again about an endpoint the user dismissed, unless asked to enable', async () => {
    const harness = await activateExtension();
    answerMessages(undefined, ALLOW);
    updateSettings({ 'graphitiMemory.enabled': true });
    await waitFor(() => consentDialogs().length === 1, 2000, 'the consent dialog');
    updateSettings({ 'graphitiMemory.recall.enabled': true });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(consentDialogs()).toHaveLength(1);
    const result = await harness.command<{ answer: string }>('graphitiMemory.enable');
    expect(result.answer).toBe('granted');
    expect(consentDialogs()).toHaveLength(2);
  });

  it('never asks or sends in an untrusted workspace', async () => {
    answerMessages((shown) => (shown.items.includes(ALLOW) ? ALLOW : undefined));
    const harness = await activateExtension({ trusted: false, settings: { 'graphitiMemory.enabled': true, 'graphitiMemory.recall.enabled': true } });
    const result = await harness.command<{ answer: string }>('graphitiMemory.enable');
    expect(result.answer).toBe('untrusted');
    const test = await harness.command<{ ok: boolean }>('graphitiMemory.testConnection', 'health');
    expect(test.ok).toBe(false);
    expect(consentDialogs()).toHaveLength(0);
    expect(harness.emulator.requests).toEqual([]);
  });
});

describe('consent per data category', () => {
  function sessionLine(): string {
    const request = {
      requestId: 'request_1',
      timestamp: 1_763_900_000_000,
      message: { text: 'We deploy with Fly.io.', parts: [{ kind: 'text', text: 'We deploy with Fly.io.' }] },
      agent: { id: 'github.copilot.default' },
      response: [{ value: 'Noted.', supportThemeIcons: false }],
      modelState: { value: 1, completedAt: 1_763_900_001_000 },
    };
    return `${JSON.stringify({ kind: 0, v: { version: 3, sessionId: 'session-1', creationDate: 1_763_900_000_000, requests: [request] } })}\n`;
  }

  it('migrates a consent record of the endpoint alone to the categories on at the time, without asking', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true, 'graphitiMemory.recall.enabled': true }, consented: true });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(consentDialogs()).toHaveLength(0);
    expect(harness.context.workspaceState.get<{ categories: string[] }>('graphitiMemory.consent')?.categories).toEqual(['memoryChat', 'recallQueries']);
    const status = await harness.command<{ state: string; inertCategories: string[] }>('graphitiMemory.showStatus');
    expect(status).toMatchObject({ state: 'ok', inertCategories: [] });
  });

  it('asks when capture.vscodeChat is turned on after consent; declining keeps it on but inert and sends nothing', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true, 'graphitiMemory.scopes': 'workspace' }, consented: true });
    answerMessages(DONT_SEND, undefined, ALLOW);
    updateSettings({ 'graphitiMemory.capture.vscodeChat': true, 'graphitiMemory.capture.granularity': 'turn' });
    await waitFor(() => consentDialogs().length === 1, 2000, 'the category consent dialog');
    expect(consentDialogs()[0]?.message).toContain('other chats of this workspace');
    expect(consentDialogs()[0]?.detail).toContain('GitHub Copilot included');

    const folder = path.join(harness.context.workspaceStorageFolder, 'chatSessions');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'session-1.jsonl'), sessionLine());
    await harness.container.get(CaptureContribution).scanNow();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(testHost().settings.get('graphitiMemory.capture.vscodeChat')).toBe(true);
    expect(harness.emulator.requests.filter((request) => request.path === '/messages')).toEqual([]);
    const status = await harness.command<{ state: string; inertCategories: string[]; summary: string }>('graphitiMemory.showStatus');
    expect(status.inertCategories).toEqual(['workspaceChats']);
    expect(status.summary).toContain('other chats of this workspace (capture.vscodeChat)');

    // Enable asks again and, once agreed, the chat is captured.
    const enabled = await harness.command<{ answer: string }>('graphitiMemory.enable');
    expect(enabled.answer).toBe('granted');
    expect(consentDialogs()).toHaveLength(2);
    await waitFor(() => harness!.emulator.requests.some((request) => request.path === '/messages'), 5000, 'the captured chat sent');
    expect(harness.context.workspaceState.get<{ categories: string[] }>('graphitiMemory.consent')?.categories).toEqual(['memoryChat', 'workspaceChats']);
  });

  it('does not ask about a declined category again on the next setting change', async () => {
    await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true });
    answerMessages(DONT_SEND);
    updateSettings({ 'graphitiMemory.includeSystemMessages': true });
    await waitFor(() => consentDialogs().length === 1, 2000, 'the category consent dialog');
    updateSettings({ 'graphitiMemory.maxBatchSize': 10 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(consentDialogs()).toHaveLength(1);
  });
});

/** The shared memory switches the agent hooks read (the test process's state folder). */
async function memorySwitches(): Promise<MemorySwitchesRecord> {
  const read = await FileMemorySwitches.inStateFolder(process.env['GRAPHITI_MEMORY_STATE_DIR'] ?? '').read();
  if (!read.ok) throw new Error(read.problem);
  return read.switches;
}

describe('what the agent hooks see of consent, enabled and trust (the shared memory switches)', () => {
  const folder = path.resolve('/work/switches-project');

  it('Revoke Consent marks this workspace revoked for every hook; consenting again clears the mark', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true, workspaceFolder: folder });
    await harness.command('graphitiMemory.revokeConsent');
    await waitFor(async () => (await memorySwitches()).workspaces[folder]?.revoked !== undefined, 2000, 'the revoke in the memory switches');
    answerMessages(ALLOW);
    await harness.command('graphitiMemory.enable');
    await waitFor(async () => (await memorySwitches()).workspaces[folder] === undefined, 2000, 'the revoke cleared');
  });

  it('turning graphitiMemory.enabled off as a user setting switches memory off everywhere; on again clears it', async () => {
    await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true, workspaceFolder: folder });
    updateSettings({ 'graphitiMemory.enabled': false });
    await waitFor(async () => (await memorySwitches()).everywhere.off !== undefined, 2000, 'memory off everywhere in the switches');
    updateSettings({ 'graphitiMemory.enabled': true });
    await waitFor(async () => (await memorySwitches()).everywhere.off === undefined, 2000, 'the off mark cleared');
  });

  it('an untrusted window marks its folder untrusted (the runtime stays unloaded); granting trust clears it', async () => {
    const harness = await activateExtension({ trusted: false, workspaceFolder: folder });
    await waitFor(async () => (await memorySwitches()).workspaces[folder]?.untrusted !== undefined, 2000, 'the untrusted mark');
    expect(harness.runtimeLoaded()).toBe(false);
    grantWorkspaceTrust();
    await waitFor(async () => (await memorySwitches()).workspaces[folder] === undefined, 2000, 'the untrusted mark cleared');
  });
});
