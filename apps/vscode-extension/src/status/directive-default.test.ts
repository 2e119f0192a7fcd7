// Issue 29 item 5 in the extension: with autoPromote unset (the default) a directive in an @memory
// turn is held for review under Pending memories, never sent; Show Status says exactly that.
import { describe, expect, it } from 'vitest';
import type * as vscode from 'vscode';
import { ReviewQueue } from '@graphiti-memory/memory-core';
import { activateExtension, waitFor } from '../test-support/extension-harness.js';
import { chatRegistrations, ChatResponseStreamDouble, createChatContext, createChatRequest, FakeLanguageModel, noCancellation, testHost } from '../test-support/vscode-double.js';
import { PARTICIPANT_ID } from '../chat/memory-participant.js';
import type { StatusReport } from './status-commands.js';

describe('directives with autoPromote unset', () => {
  it('are held for review, not sent, and Show Status says so', async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true, 'graphitiMemory.capture.granularity': 'turn' }, consented: true });
    const participant = chatRegistrations().participants.get(PARTICIPANT_ID)!;
    await participant.requestHandler(
      createChatRequest({ prompt: 'decision (workspace): adopt zod for settings', model: new FakeLanguageModel({ reply: ['Noted.'] }) }),
      createChatContext([]),
      new ChatResponseStreamDouble().asStream(),
      noCancellation(),
    ) as vscode.ChatResult;
    const review = harness.container.get(ReviewQueue);
    await waitFor(async () => (await review.list()).length > 0, 5000, 'the directive to wait in pending memories');
    expect(await review.list()).toEqual([expect.objectContaining({ kind: 'decision', scope: 'workspace', text: 'adopt zod for settings', source: 'directive' })]);
    await (await harness.ingestion()).settled();
    const sent = harness.emulator.requests.filter((request) => request.path === '/messages').map((request) => JSON.stringify(request.body));
    expect(sent.some((body) => body.includes('graphiti_episode'))).toBe(false);

    const report = await harness.command<StatusReport>('graphitiMemory.showStatus');
    expect(report.directives).toBe('held-for-review');
    expect(testHost().shownMessages.at(-1)?.message).toContain('Directives in your messages (`decision: …`) are held for your review in pending memories, never sent without your approval.');
  });
});
