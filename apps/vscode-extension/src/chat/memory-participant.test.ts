import { describe, expect, it } from 'vitest';
import type * as vscode from 'vscode';
import { activateExtension, waitFor, type Harness } from '../test-support/extension-harness.js';
import {
  cancellation,
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
import { PARTICIPANT_ID } from './memory-participant.js';


// Per-message episodes: these tests look at the messages of each turn (session digests are core's).
const ON = { 'graphitiMemory.enabled': true, 'graphitiMemory.recall.enabled': true, 'graphitiMemory.capture.granularity': 'turn' };

async function ask(prompt: string, options: { model?: FakeLanguageModel; command?: string; token?: vscode.CancellationToken; history?: vscode.ChatContext['history'] } = {}) {
  const participant = chatRegistrations().participants.get(PARTICIPANT_ID);
  if (!participant) throw new Error('the participant is not registered');
  const stream = new ChatResponseStreamDouble();
  const model = options.model ?? new FakeLanguageModel({ reply: ['Noted', ', thanks.'] });
  const result = (await participant.requestHandler(
    createChatRequest({ prompt, model, ...(options.command ? { command: options.command } : {}) }),
    createChatContext(options.history ?? []),
    stream.asStream(),
    options.token ?? noCancellation(),
  )) as vscode.ChatResult;
  return { result, stream, model };
}

function messagesSent(harness: Harness) {
  return harness.emulator.requests
    .filter((request) => request.path === '/messages')
    .flatMap((request) => (request.body as { messages: { role_type: string; name: string; content: string }[] }).messages);
}

/** Waits until the turn reached the session and the workspace group and was processed. */
async function storedInBothGroups(harness: Harness): Promise<void> {
  await waitFor(() => harness.emulator.requests.filter((request) => request.path === '/messages').length >= 2, 5000, 'both groups sent');
  await harness.emulator.idle();
}

describe('@memory', () => {
  it('answers with the chosen model and enqueues the finished turn as a user and an assistant message', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    const { stream, result } = await ask('We deploy the API with Fly.io.');
    expect(stream.text()).toContain('Noted, thanks.');
    expect((result.metadata as { sessionId: string }).sessionId).toMatch(/.+/);
    await waitFor(() => messagesSent(harness!).length >= 2, 5000, 'the turn to reach Graphiti');
    const roles = messagesSent(harness).map((message) => message.role_type);
    expect(roles).toContain('user');
    expect(roles).toContain('assistant');
    expect(messagesSent(harness).every((message) => message.name.length > 0)).toBe(true);
  });

  it('recalls facts of an earlier session into the prompt as a <graphiti_memory> block and says how many were used', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    await ask('We deploy the API with Fly.io.');
    await storedInBothGroups(harness);
    const { stream, model } = await ask('How do we deploy the API?');
    expect(model.lastPrompt()).toContain('<graphiti_memory>');
    expect(model.lastPrompt()).toContain('Fly.io');
    expect(stream.text()).toMatch(/Graphiti memory: \d+ facts? used/);
  });

  it('keeps the session id of the conversation across turns', async () => {
    await activateExtension({ settings: ON, consented: true });
    const first = await ask('Hello there.');
    const history = [
      new ChatRequestTurn('Hello there.', undefined, [], PARTICIPANT_ID),
      new ChatResponseTurn([new ChatResponseMarkdownPart('Noted, thanks.')], first.result, PARTICIPANT_ID),
    ] as unknown as vscode.ChatContext['history'];
    const second = await ask('And again.', { history });
    expect((second.result.metadata as { sessionId: string }).sessionId).toBe((first.result.metadata as { sessionId: string }).sessionId);
    expect(second.model.lastPrompt()).toContain('Hello there.');
  });

  it('completes the turn within the recall deadline when Graphiti hangs, and the status shows the failure', async () => {
    const harness = await activateExtension({ settings: { ...ON, 'graphitiMemory.recall.timeoutMs': 200 }, consented: true, emulator: { faults: { search: { hangRate: 1 } } } });
    const { stream, result } = await ask('How do we deploy?');
    expect(result.errorDetails).toBeUndefined();
    expect(stream.text()).toContain('Noted, thanks.');
    expect(stream.text()).toContain('too slow');
    const status = await harness.command<{ state: string }>('graphitiMemory.showStatus');
    expect(status.state).toBe('failing');
  });

  it('answers without memory, sending nothing, while memory is off', async () => {
    const harness = await activateExtension();
    const { stream } = await ask('How do we deploy?');
    expect(stream.text()).toContain('Noted, thanks.');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(harness.emulator.requests).toEqual([]);
  });

  it('does not store a cancelled turn', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    const source = cancellation();
    const model = new FakeLanguageModel({ reply: ['one', 'two', 'three'], onChunk: (index) => index === 1 && source.cancel() });
    await ask('Cancel me.', { model, token: source.token });
    await harness.ingestion();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(messagesSent(harness)).toEqual([]);
  });

  it('/recall lists facts with scope and validity without calling the model', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    await ask('We deploy the API with Fly.io.');
    await storedInBothGroups(harness);
    const { stream, model } = await ask('deploy API Fly.io', { command: 'recall' });
    expect(model.requests).toHaveLength(0);
    expect(stream.text()).toMatch(/- \[(session|workspace)\] .*Fly\.io.*\((valid from|recorded) /);
  });

  it('/remember parses kind and scope and queues the episode', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    const { stream } = await ask('decision workspace We use zod for validation.', { command: 'remember' });
    expect(stream.text()).toContain('<graphiti_episode kind="decision" scope="workspace">');
    await waitFor(() => messagesSent(harness!).some((message) => message.role_type === 'system'), 5000, 'the promotion to reach Graphiti');
    expect(messagesSent(harness).find((message) => message.role_type === 'system')?.content).toContain('We use zod for validation.');
  });

  it('/forget offers the confirming command and /status reports the state', async () => {
    await activateExtension();
    const forget = await ask('', { command: 'forget' });
    expect(forget.stream.parts).toContainEqual({ kind: 'button', command: 'graphitiMemory.forgetWorkspace', title: 'Forget Workspace Memory…' });
    const status = await ask('', { command: 'status' });
    expect(status.stream.text()).toContain('Memory is off');
  });
});
