import { describe, expect, it } from 'vitest';
import { CaptureContribution } from '../capture/capture-contribution.js';
import { FORGET } from '../commands/forget-workspace-command.js';
import { captureChatSession, finishedRequest } from '../test-support/chat-session-files.js';
import { activateExtension, waitFor, type Harness } from '../test-support/extension-harness.js';
import { episodesProvider } from '../test-support/episodes-provider.js';
import * as vscode from 'vscode';
import { AuditLog } from '@graphiti-memory/memory-core';
import { answerMessages, answerQuickPicks, testHost, windowRegistry } from '../test-support/vscode-double.js';
import { SENT_SCHEME } from './show-what-was-sent-command.js';

/** The test's harness, for the helpers below (the setup file disposes it after each test). */
let harness: Harness | undefined;


async function captureSession(sessionId: string, prompt: string, answer: string): Promise<void> {
  await captureChatSession(harness!, sessionId, [finishedRequest(`${sessionId}-request-1`, prompt, answer)]);
}

function groupsWithEpisodes(): string[] {
  return [...new Set(harness!.emulator.state.episodes().map((episode) => episode.group_id))].sort();
}

const SETTINGS = { 'graphitiMemory.capture.granularity': 'turn', 'graphitiMemory.enabled': true, 'graphitiMemory.capture.vscodeChat': true, 'graphitiMemory.scopes': 'both' };

describe('forget the workspace, sessions included; the audit log', () => {
  it('lists each session of the workspace, and forgetting the workspace deletes its group and every session group, dequeuing what waits', async () => {
    harness = await activateExtension({ settings: SETTINGS, consented: true });
    await captureSession('session-1', 'We deploy with Fly.io.', 'Noted.');
    await waitFor(() => groupsWithEpisodes().length === 2, 5000, 'the session and workspace groups written');
    await harness.emulator.idle();
    const written = groupsWithEpisodes();

    const roots = (await episodesProvider().getChildren()) ?? [];
    expect(roots.map((node): string => node.type).filter((type) => type !== 'recallOff')).toEqual(['curatedRoot', 'factsRoot', 'sessions']);
    const sessions = (await episodesProvider().getChildren(roots.find((node) => node.type === 'sessions'))) ?? [];
    expect(sessions).toHaveLength(1);
    const item = await episodesProvider().getTreeItem(sessions[0]!);
    expect(item.label).toBe('We deploy with Fly.io.');
    expect(item.description).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // The session holds its turn; the turn holds the question and the answer.
    const turns = (await episodesProvider().getChildren(sessions[0])) ?? [];
    expect(turns.map((node) => node.type)).toEqual(['turn']);
    expect((await episodesProvider().getTreeItem(turns[0]!)).label).toBe('We deploy with Fly.io.');
    expect(((await episodesProvider().getChildren(turns[0])) ?? []).map((node) => node.type)).toEqual(['episode', 'episode']);

    // A second session whose messages cannot be delivered yet: they wait in the outbox.
    harness.emulator.setFaults({ messages: { errorRate: 1 } });
    await captureSession('session-2', 'Which CI do we use?', 'GitHub Actions.');
    await waitFor(() => harness!.emulator.requests.some((request) => request.path === '/messages' && request.status === 500), 5000, 'a failed delivery');

    answerMessages(FORGET);
    const result = await harness.command<{ ok: boolean; deletedGroups: string[]; dequeued: number }>('graphitiMemory.forgetWorkspace');
    expect(result.ok).toBe(true);
    expect(result.deletedGroups).toEqual(expect.arrayContaining(written));
    expect(result.deletedGroups).toHaveLength(3);
    expect(result.dequeued).toBeGreaterThan(0);

    harness.emulator.setFaults({});
    await new Promise((resolve) => setTimeout(resolve, 300));
    await harness.emulator.idle();
    expect(groupsWithEpisodes().filter((group) => result.deletedGroups.includes(group))).toEqual([]);
    expect(groupsWithEpisodes()).toEqual([]);
    // Capture reading the sessions again sends nothing of the forgotten turns.
    expect(await harness.container.get(CaptureContribution).scanNow()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(groupsWithEpisodes()).toEqual([]);
    const roots2 = (await episodesProvider().getChildren()) ?? [];
    // Nothing left (but the "Recall is off" row): the welcome view says what to do.
    expect(roots2.map((node): string => node.type).filter((type) => type !== 'recallOff')).toEqual([]);
  });

  it('Show What Was Sent lists each request that carried memory, without its content', async () => {
    harness = await activateExtension({ settings: SETTINGS, consented: true });
    await captureSession('session-1', 'We deploy with Fly.io.', 'Noted.');
    await waitFor(() => groupsWithEpisodes().length === 2, 5000, 'the turn sent');
    answerQuickPicks('All tools', 'Any time');
    const shown = await harness.command<{ ok: boolean; entries: number; text: string; uri: string }>('graphitiMemory.showWhatWasSent');
    expect(shown.entries).toBeGreaterThanOrEqual(2);
    expect(shown.text).toMatch(/VS Code sent \d+ pieces? of conversation to your workspace memory at /);
    expect(shown.text).toMatch(/VS Code sent \d+ pieces? of conversation to a conversation of this workspace at /);
    // Scope names, never hashed group ids or episode names.
    for (const group of groupsWithEpisodes()) expect(shown.text).not.toContain(group);
    expect(shown.text).not.toContain('graphiti-memory.turn.');
    expect(shown.text).not.toContain('Noted.');
    expect(shown.text).not.toContain('Fly.io');
    // A read-only document of its own scheme in the Markdown preview, never an unsaved editor.
    expect(windowRegistry().shownDocuments).toEqual([]);
    const preview = testHost().executedCommands.find((executed) => executed.command === 'markdown.showPreview');
    const uri = preview?.args[0] as vscode.Uri;
    expect(uri.scheme).toBe(SENT_SCHEME);
    const document = await vscode.workspace.openTextDocument(uri);
    expect(document.isUntitled).toBe(false);
    expect(document.getText()).toMatch(/VS Code sent \d+ pieces? of conversation/);
    expect(document.getText()).not.toContain('Noted.');
  });

  it('Show What Was Sent filters by tool and by time through its quick pick', async () => {
    harness = await activateExtension({ settings: SETTINGS, consented: true });
    await captureSession('session-1', 'We deploy with Fly.io.', 'Noted.');
    await waitFor(() => groupsWithEpisodes().length === 2, 5000, 'the turn sent');
    // Another tool's request, two days old: the shared log holds every tool's.
    const log = harness.container.get<AuditLog>(AuditLog);
    log.record({ at: new Date(Date.now() - 48 * 3_600_000).toISOString(), tool: 'graphiti-harness', endpoint: harness.emulator.url, operation: 'POST /search', groupIds: ['harness-group'], episodeNames: [], bytes: 12, redactions: 0, kind: 'search' });
    await log.flush();

    answerQuickPicks('graphiti-harness', 'Any time');
    const harnessOnly = await harness.command<{ entries: number; text: string }>('graphitiMemory.showWhatWasSent');
    const [toolPick, timePick] = testHost().shownQuickPicks;
    expect(toolPick?.items.map((item) => item.label)).toEqual(['All tools', 'vscode-extension', 'graphiti-harness']);
    expect(timePick?.items.map((item) => item.label)).toEqual(['Any time', 'Last hour', 'Last 24 hours', 'Last 7 days']);
    expect(harnessOnly.entries).toBe(1);
    expect(harnessOnly.text).toContain('Graphiti-harness searched a memory this machine does not know');
    expect(harnessOnly.text).not.toContain('VS Code sent');

    answerQuickPicks('All tools', 'Last 24 hours');
    const recent = await harness.command<{ entries: number; text: string }>('graphitiMemory.showWhatWasSent');
    expect(recent.entries).toBeGreaterThanOrEqual(2);
    expect(recent.text).toContain('Showing: every tool, last 24 hours.');
    expect(recent.text).not.toContain('Graphiti-harness');

    // Escape at either step opens nothing.
    answerQuickPicks(undefined);
    expect(await harness.command('graphitiMemory.showWhatWasSent')).toMatchObject({ ok: false });
  });
});
