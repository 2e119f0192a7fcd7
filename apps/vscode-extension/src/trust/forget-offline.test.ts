// Issue 20's forget in the extension: Forget Workspace Memory with Graphiti unreachable (every
// delete's connection reset) succeeds and says so; the extension's next delivery deletes the
// groups before it sends anything; and a chat session carrying the forgotten request again under a
// new session id (a resumed or copied chat) sends nothing of it.
import { describe, expect, it } from 'vitest';
import { FORGET } from '../commands/forget-workspace-command.js';
import { captureChatSession, finishedRequest } from '../test-support/chat-session-files.js';
import { activateExtension, waitFor, type Harness } from '../test-support/extension-harness.js';
import { answerMessages } from '../test-support/vscode-double.js';

let harness: Harness | undefined;

async function captureSession(sessionId: string, requestId: string, prompt: string, answer: string): Promise<void> {
  await captureChatSession(harness!, sessionId, [finishedRequest(requestId, prompt, answer)]);
}

const sentNames = (): string[] =>
  harness!.emulator.requests
    .filter((request) => request.route === 'messages' && request.status === 202)
    .flatMap((request) => ((request.body as { messages?: Array<{ name: string }> }).messages ?? []).map((message) => message.name));

// Per-message episodes: the test follows one turn's fate (digests have their own forget tests).
const SETTINGS = { 'graphitiMemory.enabled': true, 'graphitiMemory.capture.vscodeChat': true, 'graphitiMemory.capture.granularity': 'turn', 'graphitiMemory.scopes': 'both' };

describe('Forget Workspace Memory with Graphiti unreachable', () => {
  it('succeeds and says the groups are deleted when Graphiti is back; the next delivery deletes them first; the forgotten request is never sent again', async () => {
    harness = await activateExtension({ settings: SETTINGS, consented: true });
    await captureSession('session-1', 'request-1', 'We deploy with Fly.io.', 'Noted.');
    await waitFor(() => harness!.emulator.state.episodes().length === 4, 5000, 'the turn stored in both groups');
    await harness.emulator.idle();
    const written = [...new Set(harness.emulator.state.episodes().map((episode) => episode.group_id))].sort();

    harness.emulator.setFaults({ 'delete-group': { resetRate: 1 } });
    answerMessages(FORGET);
    const result = await harness.command<{ ok: boolean; message: string; deletedGroups: string[] }>('graphitiMemory.forgetWorkspace');
    expect(result.ok).toBe(true);
    expect(result.deletedGroups).toEqual([]);
    expect(result.message).toContain('is unreachable; queued memories were dropped');
    expect(harness.emulator.state.episodes()).toHaveLength(4);

    // Graphiti is back. The same request again under a new session id, and a new chat.
    harness.emulator.setFaults({});
    harness.emulator.clearRequests();
    await captureSession('session-2', 'request-1', 'We deploy with Fly.io.', 'Noted.');
    await captureSession('session-3', 'request-3', 'Logs go to Grafana Loki.', 'Noted.');
    await waitFor(() => sentNames().some((name) => name.includes('request-3')), 5000, 'the new chat sent');
    await harness.emulator.idle();
    const routes = harness.emulator.requests.map((request) => request.route);
    expect(routes.lastIndexOf('delete-group')).toBeLessThan(routes.indexOf('messages'));
    expect(harness.emulator.requests.filter((request) => request.route === 'delete-group').map((request) => decodeURIComponent(request.path.slice('/group/'.length))).sort()).toEqual(written);
    expect(sentNames().filter((name) => name.includes('request-1'))).toEqual([]);
    expect(harness.emulator.state.episodes().every((episode) => episode.name.includes('request-3'))).toBe(true);
  });
});
