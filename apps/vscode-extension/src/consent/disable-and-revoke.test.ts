// Disable (this workspace / everywhere), Turn Recall On where it takes effect, and what a revoke
// leaves a user: "off — consent revoked", and a forget that still works after saying which server.
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { FileMemorySwitches, type MemorySwitchesRecord } from '@graphiti-memory/memory-node-storage';
import { FORGET } from '../commands/forget-workspace-command.js';
import { activateExtension, waitFor } from '../test-support/extension-harness.js';
import { answerMessages, answerQuickPicks, ConfigurationTarget, testHost, windowRegistry, workspace } from '../test-support/vscode-double.js';
import { ALLOW, ALLOW_WITH_RECALL } from './consent-flow.js';
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
    answerMessages(undefined, undefined);
    const result = await harness.command<{ target: string }>('graphitiMemory.enableRecall');
    expect(result.target).toBe('workspace');
    expect(workspace.getConfiguration('graphitiMemory').inspect('recall.enabled')).toMatchObject({ workspaceValue: true });
  });

  it('writes recall.enabled where enabled is set: the user settings', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    answerMessages(undefined, undefined);
    const result = await harness.command<{ target: string }>('graphitiMemory.enableRecall');
    expect(result.target).toBe('user');
    expect(workspace.getConfiguration('graphitiMemory').inspect('recall.enabled')).toMatchObject({ globalValue: true });
  });
});

describe('the consent dialog', () => {
  it('offers recall as its own choice; recall stays off with a plain Allow', async () => {
    const harness = await activateExtension();
    answerMessages(ALLOW);
    await harness.command('graphitiMemory.enable');
    const dialog = testHost().shownMessages[0];
    expect(dialog?.items).toEqual([ALLOW, ALLOW_WITH_RECALL, 'Turn Memory Off']);
    expect(dialog?.detail).toContain('Recall is off');
    expect(testHost().settings.get('graphitiMemory.recall.enabled')).toBeUndefined();
    const status = await harness.command<{ summary: string }>('graphitiMemory.showStatus');
    expect(status.summary).toContain('Recall is off');
  });

  it('"Allow and Recall into Prompts" turns recall on, with consent to send questions as searches', async () => {
    const harness = await activateExtension();
    answerMessages(ALLOW_WITH_RECALL);
    await harness.command('graphitiMemory.enable');
    expect(testHost().settings.get('graphitiMemory.recall.enabled')).toBe(true);
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
