// Issue 29 item 2: Forget, Revoke Consent and Disable reach every @memory chat. What a chat was given
// (the facts kept for its prompt, the answers built on them) is gone from its next request, and while
// memory is off the answer says so.
import { describe, expect, it } from 'vitest';
import type * as vscode from 'vscode';
import { activateExtension, waitFor, type Harness } from '../test-support/extension-harness.js';
import {
  answerMessages,
  ChatRequestTurn,
  ChatResponseMarkdownPart,
  ChatResponseTurn,
  chatRegistrations,
  ChatResponseStreamDouble,
  createChatContext,
  createChatRequest,
  FakeLanguageModel,
  noCancellation,
} from '../test-support/vscode-double.js';
import { FORGET } from '../commands/forget-workspace-command.js';
import { WITHDRAWN_ANSWER } from './chat-history.js';
import { PARTICIPANT_ID } from './memory-participant.js';

const ON = { 'graphitiMemory.enabled': true, 'graphitiMemory.recall.enabled': true, 'graphitiMemory.capture.granularity': 'turn' };

async function ask(prompt: string, history: vscode.ChatContext['history'] = [], reply = ['Noted', ', thanks.']) {
  const participant = chatRegistrations().participants.get(PARTICIPANT_ID);
  if (!participant) throw new Error('the participant is not registered');
  const stream = new ChatResponseStreamDouble();
  const model = new FakeLanguageModel({ reply });
  const result = (await participant.requestHandler(createChatRequest({ prompt, model }), createChatContext(history), stream.asStream(), noCancellation())) as vscode.ChatResult;
  return { result, stream, model };
}

/** A chat whose first answer was given the Fly.io fact (and repeated it, as a model would). */
async function chatGivenTheFact(harness: Harness) {
  await ask('We deploy the API with Fly.io.');
  await waitFor(() => harness.emulator.requests.filter((request) => request.path === '/messages').length >= 2, 5000, 'both groups sent');
  await harness.emulator.idle();
  const first = await ask('How do we deploy the API?', [], ['You deploy it with Fly.io.']);
  expect(first.model.lastPrompt()).toContain('deploy the API with Fly.io');
  expect(first.result.metadata).toMatchObject({ factsUsed: 1 });
  const history = [
    new ChatRequestTurn('How do we deploy the API?', undefined, [], PARTICIPANT_ID),
    new ChatResponseTurn([new ChatResponseMarkdownPart('You deploy it with Fly.io.')], first.result, PARTICIPANT_ID),
  ] as unknown as vscode.ChatContext['history'];
  // Before any forget the same chat keeps what it was given: the fact once, and the answer.
  const kept = await ask('Which region?', history);
  expect(kept.model.lastPrompt()).toContain('deploy the API with Fly.io');
  expect(kept.model.lastPrompt()).toContain('You deploy it with Fly.io.');
  // The chat's turns are captured (their groups known) before the user forgets, as minutes apart they would be.
  await harness.ingestion();
  await harness.emulator.idle();
  return history;
}

describe('@memory after Forget, Revoke Consent and Disable', () => {
  it('Forget Workspace Memory: the next request of the same chat carries nothing forgotten', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    const history = await chatGivenTheFact(harness);
    answerMessages(FORGET);
    expect((await harness.command<{ ok: boolean }>('graphitiMemory.forgetWorkspace')).ok).toBe(true);
    const next = await ask('And which region?', history);
    expect(next.model.lastPrompt()).not.toContain('Fly.io');
    // The earlier answer drew on the forgotten fact: it is left out, said so.
    expect(next.model.lastPrompt()).toContain(WITHDRAWN_ANSWER);
    expect(next.model.lastPrompt()).toContain('How do we deploy the API?');
    expect(next.result.metadata).toMatchObject({ factsUsed: 0 });
  });

  it('Disable: the next request carries nothing memory gave, and the answer says memory is off', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    const history = await chatGivenTheFact(harness);
    await harness.command('graphitiMemory.disable', 'workspace');
    const next = await ask('And which region?', history);
    expect(next.model.lastPrompt()).not.toContain('Fly.io');
    expect(next.stream.text()).toContain('Memory is off in this workspace.');
    // The line is not conversation: a later request leaves it out of the history.
    const later = await ask('Thanks.', [
      ...history,
      new ChatRequestTurn('And which region?', undefined, [], PARTICIPANT_ID),
      new ChatResponseTurn([new ChatResponseMarkdownPart(next.stream.text())], next.result, PARTICIPANT_ID),
    ] as unknown as vscode.ChatContext['history']);
    expect(later.model.lastPrompt()).not.toContain('Memory is off');
  });

  it('Revoke Consent: the next request carries nothing memory gave, and the answer says memory waits for consent', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    const history = await chatGivenTheFact(harness);
    await harness.command('graphitiMemory.revokeConsent');
    const next = await ask('And which region?', history);
    expect(next.model.lastPrompt()).not.toContain('Fly.io');
    expect(next.stream.text()).toContain('Memory is enabled but waits for your consent.');
  });

  it('a fact still held after a forget of another source is recalled and given again, not skipped as said', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    const history = await chatGivenTheFact(harness);
    // A forget of the user scope: the workspace's fact stays on the server.
    answerMessages(FORGET);
    await harness.command('graphitiMemory.episodes.forgetScope', 'user');
    const next = await ask('How do we deploy the API again?', history);
    expect(next.model.lastPrompt().match(/deploy the API with Fly\.io/g)).toHaveLength(1);
    // In this turn's own memory block (new to the chat again), not only in the history.
    expect((next.result.metadata as { factsUsed: number }).factsUsed).toBeGreaterThan(0);
  });
});
