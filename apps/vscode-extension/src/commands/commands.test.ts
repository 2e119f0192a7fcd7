import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { activateExtension, waitFor } from '../test-support/extension-harness.js';
import { answerInputBoxes, answerMessages, answerQuickPicks, testHost } from '../test-support/vscode-double.js';
import { ALLOW, DONT_SEND } from '../consent/consent-flow.js';
import { FORGET } from './forget-workspace-command.js';
import { SHARE_WITH_TEAM } from '../consent/team-consent.js';
import * as vscode from 'vscode';


const ON = { 'graphitiMemory.enabled': true };

describe('commands', () => {
  it('Promote to Memory asks kind → scope → text, prefilled from the selection', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    testHost().activeEditor = { selectedText: 'Releases are cut on Mondays.' };
    answerQuickPicks('Procedure', 'This workspace');
    answerInputBoxes('Releases are cut on Mondays.');
    const result = await harness.command<{ ok: boolean; groupId: string }>('graphitiMemory.promote');
    expect(result.ok).toBe(true);
    expect(testHost().shownInputBoxes[0]?.options?.value).toBe('Releases are cut on Mondays.');
    // Kinds by name, not by id.
    expect(testHost().shownQuickPicks[0]?.items.map((item) => item.label)).toEqual(['Decision', 'Lesson learned', 'Preference', 'Procedure', 'Task update', 'Terminology']);
    await waitFor(() => harness!.emulator.requests.some((request) => request.path === '/messages'), 5000, 'the promotion sent');
    const body = harness.emulator.requests.find((request) => request.path === '/messages')?.body as { group_id: string; messages: { content: string }[] };
    expect(body.group_id).toBe(result.groupId);
    expect(body.messages[0]?.content).toContain('<graphiti_episode kind="procedure" scope="workspace"');
  });

  it('Promote to the team scope first asks for the team consent in a modal naming who can read it', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    const shown: string[] = [];
    answerQuickPicks('Decision', 'Your team');
    answerMessages((message) => {
      shown.push(`${message.message} ${JSON.stringify(message)}`);
      return undefined;
    });
    const declined = await harness.command<{ ok: boolean; reason: string }>('graphitiMemory.promote');
    expect(declined).toMatchObject({ ok: false, reason: 'cancelled' });
    expect(shown.join('\n')).toContain('anyone who uses this Graphiti server with this repository');
    expect(vscode.workspace.getConfiguration('graphitiMemory').get('team.consent')).not.toBe(true);

    answerQuickPicks('Decision', 'Your team');
    answerMessages(SHARE_WITH_TEAM);
    answerInputBoxes('Releases ship on Tuesdays.');
    const result = await harness.command<{ ok: boolean; reason: string }>('graphitiMemory.promote');
    expect(vscode.workspace.getConfiguration('graphitiMemory').get('team.consent')).toBe(true);
    // This test workspace has no git remote, so it has no team group: refused, and said why.
    expect(result).toMatchObject({ ok: false, reason: 'no-scope' });
    expect(harness.emulator.requests.filter((request) => request.path === '/messages')).toEqual([]);
  });

  it("Promote to the team scope takes a team consent from the user's config file (the configuration in force), asking nothing", async () => {
    const config = fs.mkdtempSync(path.join(os.tmpdir(), 'team-consent-config-'));
    fs.writeFileSync(path.join(config, 'config.json'), JSON.stringify({ team: { consent: true } }));
    vi.stubEnv('GRAPHITI_MEMORY_CONFIG_DIR', config);
    try {
      const harness = await activateExtension({ settings: ON, consented: true });
      const shown: string[] = [];
      answerMessages((message) => {
        shown.push(message.message);
        return undefined;
      });
      const result = await harness.command<{ ok: boolean; reason: string }>('graphitiMemory.promote', { kind: 'decision', scope: 'team', text: 'Releases ship on Tuesdays.' });
      expect(shown.filter((message) => /Share memories with your team/.test(message))).toEqual([]);
      // Past the consent: this test workspace has no git remote, so no team group (not "cancelled").
      expect(result).toMatchObject({ ok: false, reason: 'no-scope' });
      expect(vscode.workspace.getConfiguration('graphitiMemory').get('team.consent')).not.toBe(true);
    } finally {
      vi.unstubAllEnvs();
      fs.rmSync(config, { recursive: true, force: true });
    }
  });

  it('Promote refuses a secret', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    const result = await harness.command<{ ok: boolean; reason: string }>('graphitiMemory.promote', {
      kind: 'procedure',
      scope: 'workspace',
      text: 'Deploy with AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    });
    expect(result).toMatchObject({ ok: false, reason: 'secret' });
  });

  it('Forget Workspace Memory deletes the group only after confirmation', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    answerMessages(undefined);
    expect((await harness.command<{ ok: boolean }>('graphitiMemory.forgetWorkspace')).ok).toBe(false);
    expect(harness.emulator.requests.filter((request) => request.method === 'DELETE')).toEqual([]);
    // Declining is not a problem: no warning after the dialog.
    expect(testHost().shownMessages.filter((message) => !message.modal)).toEqual([]);
    answerMessages(FORGET);
    expect((await harness.command<{ ok: boolean }>('graphitiMemory.forgetWorkspace')).ok).toBe(true);
    expect(harness.emulator.requests.filter((request) => request.method === 'DELETE').map((request) => request.path)).toEqual([
      expect.stringMatching(/^\/group\/gm_workspace_[0-9a-f]+$/),
    ]);
  });

  it('Set API Key stores the key in secret storage and sends it; Clear API Key removes it', async () => {
    const harness = await activateExtension();
    answerInputBoxes('s3cret-key');
    await harness.command('graphitiMemory.setApiKey');
    expect(await harness.context.secrets.get('graphitiMemory.apiKey')).toBe('s3cret-key');
    expect(testHost().shownInputBoxes[0]?.options?.password).toBe(true);
    await harness.command('graphitiMemory.testConnection', 'health');
    expect(harness.emulator.requests.at(-1)?.headerNames).toContain('authorization');
    await harness.command('graphitiMemory.clearApiKey');
    expect(harness.context.secrets.keys()).toEqual([]);
    await harness.command('graphitiMemory.testConnection', 'health');
    expect(harness.emulator.requests.at(-1)?.headerNames).not.toContain('authorization');
    expect(harness.logText()).not.toContain('s3cret-key');
  });

  it('Import Claude Code Sessions enqueues each finished turn once', async () => {
    const harness = await activateExtension({ settings: { ...ON, 'graphitiMemory.scopes': 'workspace' }, consented: true });
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'claude-import-'));
    const file = path.join(folder, 'session-a.jsonl');
    const lines = [
      { type: 'user', uuid: 'u1', sessionId: 'session-a', timestamp: '2026-01-01T10:00:00Z', message: { role: 'user', content: 'How do we release?' } },
      { type: 'assistant', uuid: 'a1', parentUuid: 'u1', sessionId: 'session-a', timestamp: '2026-01-01T10:00:05Z', message: { role: 'assistant', stop_reason: 'end_turn', content: [{ type: 'text', text: 'Tag and push.' }] } },
    ];
    fs.writeFileSync(file, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    // Claude Code sessions are a consent category of their own: declined, nothing is imported.
    answerMessages(DONT_SEND);
    const declined = await harness.command<{ ok: boolean; turns: number }>('graphitiMemory.importClaudeCodeSessions', [file]);
    expect(declined).toMatchObject({ ok: false, turns: 0 });
    expect(testHost().shownMessages.some((shown) => shown.modal && shown.message.includes('Claude Code sessions'))).toBe(true);
    answerMessages(ALLOW);
    const first = await harness.command<{ turns: number }>('graphitiMemory.importClaudeCodeSessions', [file]);
    expect(first.turns).toBe(1);
    await waitFor(() => harness!.emulator.requests.some((request) => request.path === '/messages'), 5000, 'the import sent');
    await harness.command('graphitiMemory.importClaudeCodeSessions', [file]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(harness.emulator.requests.filter((request) => request.path === '/messages')).toHaveLength(1);
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('Open Log shows the channel', async () => {
    const harness = await activateExtension();
    await harness.command('graphitiMemory.openLog');
    const { windowRegistry } = await import('../test-support/vscode-double.js');
    expect(windowRegistry().outputChannels[0]?.shown).toBe(1);
  });
});
