// Disable (this workspace / everywhere), Turn Recall On where it takes effect, and what a revoke
// leaves a user: "off — consent revoked", and a forget that still works after saying which server.
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { FileMemorySwitches, type MemorySwitchesRecord } from '@graphiti-memory/memory-node-storage';
import { FORGET } from '../commands/forget-workspace-command.js';
import { activateExtension, waitFor } from '../test-support/extension-harness.js';
import { answerMessages, answerQuickPicks, ConfigurationTarget, testHost, windowRegistry, workspace } from '../test-support/vscode-double.js';
import { ALLOW, STORE_ONLY } from './consent-flow.js';
import { DISABLE_EVERYWHERE, type DisableResult } from './disable-commands.js';
import { MemorySwitchRecorder } from './memory-switch-recorder.js';

const folder = path.resolve('/work/disable-project');
const ON = { 'graphitiMemory.enabled': true };

async function memorySwitches(): Promise<MemorySwitchesRecord> {
  const read = await FileMemorySwitches.inStateFolder(process.env['GRAPHITI_MEMORY_STATE_DIR'] ?? '').read();
  if (!read.ok) throw new Error(read.problem);
  return read.switches;
}

describe('Disable', () => {
  it('in this workspace writes enabled: false as a workspace value and marks this folder off for the hooks', async () => {
    const harness = await activateExtension({ settings: ON, consented: true, workspaceFolder: folder });
    answerMessages(undefined);
    const result = await harness.command<DisableResult>('graphitiMemory.disable', 'workspace');
    expect(result).toMatchObject({ ok: true, target: 'workspace' });
    expect(result.message).toContain('off in this workspace');
    expect(workspace.getConfiguration('graphitiMemory').inspect('enabled')).toMatchObject({ workspaceValue: false });
    expect((await memorySwitches()).workspaces[folder]?.off).toBeDefined();
    expect((await memorySwitches()).everywhere.off).toBeUndefined();
    expect(windowRegistry().statusBarItems[0]?.text).toContain('Memory: off');
  });

  it('everywhere (picked) writes the user value, drops a workspace true that would win, and marks memory off everywhere', async () => {
    const harness = await activateExtension({ consented: true, workspaceFolder: folder });
    await workspace.getConfiguration('graphitiMemory').update('enabled', true, ConfigurationTarget.Workspace);
    answerQuickPicks(DISABLE_EVERYWHERE);
    answerMessages(undefined);
    const result = await harness.command<DisableResult>('graphitiMemory.disable');
    expect(testHost().shownQuickPicks[0]?.items.map((item) => item.label)).toEqual(['$(folder) In This Workspace', DISABLE_EVERYWHERE]);
    expect(result).toMatchObject({ ok: true, target: 'everywhere' });
    expect(workspace.getConfiguration('graphitiMemory').inspect('enabled')).toMatchObject({ globalValue: false });
    expect((await memorySwitches()).everywhere.off).toBeDefined();
  });

  it("writes the switches through the window's one recorder, which the settings event's mirror uses too (one queue, in order)", async () => {
    const harness = await activateExtension({ settings: ON, consented: true, workspaceFolder: folder });
    const recorder = harness.container.get(MemorySwitchRecorder);
    const written = vi.spyOn(recorder, 'enabledChanged');
    answerMessages(undefined);
    await harness.command<DisableResult>('graphitiMemory.disable', 'workspace');
    // Disable's own write and the consent contribution's mirror of the settings event: one instance.
    await waitFor(() => written.mock.calls.length >= 2, 5000, 'both writes through the one recorder');
    expect(written.mock.calls.every(([values]) => values.workspaceValue === false)).toBe(true);
    expect((await memorySwitches()).workspaces[folder]?.off).toBeDefined();
  });

  it('Escape changes nothing and says nothing', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    answerQuickPicks(undefined);
    const result = await harness.command<DisableResult>('graphitiMemory.disable');
    expect(result.target).toBeUndefined();
    expect(testHost().settings.get('graphitiMemory.enabled')).toBe(true);
    expect(testHost().shownMessages).toHaveLength(0);
  });
});

describe('Turn Recall On', () => {
  it('writes recall.enabled where enabled is set: the workspace', async () => {
    const harness = await activateExtension({ consented: true });
    await workspace.getConfiguration('graphitiMemory').update('enabled', true, ConfigurationTarget.Workspace);
    answerMessages(ALLOW, undefined);
    const result = await harness.command<{ target: string }>('graphitiMemory.enableRecall');
    expect(result.target).toBe('workspace');
    expect(workspace.getConfiguration('graphitiMemory').inspect('recall.enabled')).toMatchObject({ workspaceValue: true });
  });

  it('writes recall.enabled where enabled is set: the user settings', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    answerMessages(ALLOW, undefined);
    const result = await harness.command<{ target: string }>('graphitiMemory.enableRecall');
    expect(result.target).toBe('user');
    expect(workspace.getConfiguration('graphitiMemory').inspect('recall.enabled')).toMatchObject({ globalValue: true });
  });

  it('asks at most once: the consent to send questions comes before "recall is on", and never again after it', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    answerMessages(ALLOW, undefined, undefined);
    expect(await harness.command<{ ok: boolean }>('graphitiMemory.enableRecall')).toMatchObject({ ok: true, target: 'user' });
    // The setting's change ran the automatic consent check: it found nothing left to ask.
    await harness.command('graphitiMemory.showStatus');
    const modals = () => testHost().shownMessages.filter((shown) => shown.modal);
    expect(modals()).toHaveLength(1);
    expect(modals()[0]?.message).toMatch(/also send/);
    const said = testHost().shownMessages.findIndex((shown) => /recall is on/.test(shown.message));
    expect(said).toBeGreaterThan(testHost().shownMessages.indexOf(modals()[0]!));
    // Again: already on, nothing asked.
    expect(await harness.command<{ target: string | undefined; message: string }>('graphitiMemory.enableRecall')).toMatchObject({ target: undefined, message: expect.stringMatching(/already on/) });
    expect(modals()).toHaveLength(1);
  });

  it('declining the question leaves recall off and says so', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    answerMessages(undefined, undefined);
    expect(await harness.command<{ ok: boolean }>('graphitiMemory.enableRecall')).toMatchObject({ ok: false, target: undefined });
    expect(testHost().settings.get('graphitiMemory.recall.enabled')).toBeUndefined();
  });
});

describe('the consent dialog', () => {
  it('offers storing only beside the default; with it recall stays off', async () => {
    const harness = await activateExtension();
    answerMessages(STORE_ONLY);
    await harness.command('graphitiMemory.enable');
    const dialog = testHost().shownMessages[0];
    expect(dialog?.items).toEqual([ALLOW, STORE_ONLY, 'Turn Memory Off']);
    expect(dialog?.detail).toContain('stores memory without ever looking anything up');
    expect(testHost().settings.get('graphitiMemory.recall.enabled')).toBeUndefined();
    const status = await harness.command<{ summary: string }>('graphitiMemory.showStatus');
    expect(status.summary).toContain('Recall is off');
  });

  it('the default choice, "Allow", makes memory work: recall on (in the user settings), with consent to send questions as searches', async () => {
    const harness = await activateExtension();
    answerMessages(ALLOW);
    await harness.command('graphitiMemory.enable');
    expect(testHost().shownMessages[0]?.items?.[0]).toBe(ALLOW);
    expect(testHost().settings.get('graphitiMemory.recall.enabled')).toBe(true);
    expect(testHost().settings.get('graphitiMemory.enabled')).toBe(true);
    // Not the repository's .vscode/settings.json: the user settings.
    expect(workspace.getConfiguration('graphitiMemory').inspect('enabled')).toMatchObject({ globalValue: true });
    expect(workspace.getConfiguration('graphitiMemory').inspect('recall.enabled')).toMatchObject({ globalValue: true });
    expect(harness.context.workspaceState.get<{ categories: string[] }>('graphitiMemory.consent')?.categories).toContain('recallQueries');
    const status = await harness.command<{ summary: string; state: string }>('graphitiMemory.showStatus');
    expect(status.state).toBe('ok');
    expect(status.summary).not.toContain('Recall is off');
  });
});

describe('after Revoke Consent', () => {
  it('the user can still forget their data: the dialog names the server and that only a delete is sent', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    await harness.command('graphitiMemory.promote', { kind: 'decision', scope: 'workspace', text: 'We use zod.' });
    await waitFor(() => harness.emulator.state.episodes().length > 0, 5000, 'the promotion stored');
    answerMessages(undefined);
    await harness.command('graphitiMemory.revokeConsent');
    expect(testHost().shownMessages.at(-1)?.items).toContain('Forget Workspace Memory…');
    answerMessages(FORGET, undefined);
    const result = await harness.command<{ ok: boolean; message: string }>('graphitiMemory.forgetWorkspace');
    const dialog = testHost().shownMessages.find((shown) => shown.modal && shown.message.startsWith('Forget'));
    expect(dialog?.message).toContain(harness.emulator.url);
    expect(dialog?.detail).toContain(`contacts ${harness.emulator.url} only to delete`);
    expect(result.ok).toBe(true);
    expect(harness.emulator.requests.some((request) => request.method === 'DELETE')).toBe(true);
    expect(harness.emulator.state.episodes()).toHaveLength(0);
    // Still off: the forget sent a delete and nothing else.
    expect(harness.dataRequests().filter((request) => request.path === '/messages')).toHaveLength(1);
  });

  it('declining the forget dialog sends nothing', async () => {
    const harness = await activateExtension({ settings: ON });
    answerMessages(undefined);
    const before = harness.emulator.requests.length;
    const result = await harness.command<{ ok: boolean }>('graphitiMemory.forgetWorkspace');
    expect(result.ok).toBe(false);
    expect(testHost().shownMessages[0]?.modal).toBe(true);
    expect(harness.emulator.requests.length).toBe(before);
  });
});
