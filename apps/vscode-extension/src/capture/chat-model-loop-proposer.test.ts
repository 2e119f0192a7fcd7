// The chat model proposing loops (`graphitiMemory.loops.proposeWithModel`), with the vscode double's
// `lm`: the proposer alone (model choice, justification, every failure a miss, one message when no
// model exists), then the extension's container: a closed session's proposals wait in review, and
// approving one opens the loop and sends its task_update to the emulator; off, nothing is asked.
import { Ingestion, LoopProposals, LoopService, ReviewQueue, type LogFields, type Logger, type LoopProposalRequest } from '@graphiti-memory/memory-core';
import { afterEach, describe, expect, it } from 'vitest';
import { activateExtension, waitFor, type Harness } from '../test-support/extension-harness.js';
import { episodesProvider } from '../test-support/episodes-provider.js';
import { FakeLanguageModel, LanguageModelError, testHost, useChatModels } from '../test-support/vscode-double.js';
import { ChatModelLoopProposer, LOOP_PROPOSAL_JUSTIFICATION, NO_LOOP_MODEL_MESSAGE } from './chat-model-loop-proposer.js';

const REQUEST: LoopProposalRequest = { prompt: 'Which loops?\nuser: we still have to document the flags', model: '', maxAnswerChars: 4_000 };
const ANSWER = '{"open":[{"text":"document the new flags"}],"done":[]}';

class RecordingLogger implements Logger {
  readonly lines: { message: string; fields: LogFields | undefined }[] = [];
  debug = (message: string, fields?: LogFields): void => void this.lines.push({ message, fields });
  info = this.debug;
  warn = this.debug;
  error = this.debug;
}

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

const propose = (proposer: ChatModelLoopProposer, request: Partial<LoopProposalRequest> = {}, signal = new AbortController().signal) => proposer.propose({ ...REQUEST, ...request }, signal);

describe('ChatModelLoopProposer', () => {
  it("returns the model's raw answer, asking with the justification and memory-core's prompt as it is", async () => {
    const model = new FakeLanguageModel({ reply: ['{"open":[{"text":"document ', 'the new flags"}],"done":[]}'] });
    useChatModels(model);
    expect(await propose(new ChatModelLoopProposer(new RecordingLogger()))).toEqual({ ok: true, answer: ANSWER, model: 'fake-model' });
    expect(model.requests[0]?.options?.justification).toBe(LOOP_PROPOSAL_JUSTIFICATION);
    expect(model.lastPrompt()).toBe(REQUEST.prompt);
  });

  it('uses the model capture.digestModel names, by family or id, else the first one offered', async () => {
    useChatModels(new FakeLanguageModel({ id: 'copilot-gpt-4o', family: 'gpt-4o', reply: ['first'] }), new FakeLanguageModel({ id: 'copilot-mini', family: 'gpt-4o-mini', reply: ['small'] }));
    const proposer = new ChatModelLoopProposer(new RecordingLogger());
    expect(await propose(proposer, { model: 'gpt-4o-mini' })).toMatchObject({ ok: true, answer: 'small' });
    expect(await propose(proposer, { model: 'copilot-mini' })).toMatchObject({ ok: true, answer: 'small' });
    expect(await propose(proposer, { model: '' })).toMatchObject({ ok: true, answer: 'first' });
  });

  it('stops reading an answer longer than the format allows', async () => {
    useChatModels(new FakeLanguageModel({ reply: ['x'.repeat(30), 'y'.repeat(30), 'never read'] }));
    const answer = await propose(new ChatModelLoopProposer(new RecordingLogger()), { maxAnswerChars: 50 });
    expect(answer.ok && answer.answer).toBe(`${'x'.repeat(30)}${'y'.repeat(30)}`);
  });

  it('says once, clearly, that no chat model is available and no loops are proposed', async () => {
    const proposer = new ChatModelLoopProposer(new RecordingLogger());
    expect(await propose(proposer)).toEqual({ ok: false, reason: 'no-model' });
    useChatModels(new FakeLanguageModel());
    expect(await propose(proposer, { model: 'no-such-model' })).toEqual({ ok: false, reason: 'no-model' });
    expect(testHost().shownMessages.map((shown) => shown.message)).toEqual([NO_LOOP_MODEL_MESSAGE]);
  });

  it('treats a refusal as a miss, not found as no model, any other error as a failure, logging no content', async () => {
    const logger = new RecordingLogger();
    const proposer = new ChatModelLoopProposer(logger);
    for (const [error, reason] of [
      [LanguageModelError.NoPermissions(), 'refused'],
      [LanguageModelError.Blocked(), 'refused'],
      [LanguageModelError.NotFound(), 'no-model'],
      [new Error('socket hang up'), 'failed'],
    ] as const) {
      useChatModels(new FakeLanguageModel({ failWith: error }));
      expect(await propose(proposer)).toEqual({ ok: false, reason });
    }
    expect(JSON.stringify(logger.lines)).not.toContain('document the flags');
  });

  it("cancels the model's request when memory-core's deadline aborts", async () => {
    const deadline = new AbortController();
    const model = new FakeLanguageModel({ reply: ['{"open":', '[],', '"done":[]}'], onChunk: (index) => index === 1 && deadline.abort() });
    useChatModels(model);
    expect(await propose(new ChatModelLoopProposer(new RecordingLogger()), {}, deadline.signal)).toEqual({ ok: false, reason: 'cancelled' });
    expect(model.requests[0]?.cancelled()).toBe(true);
  });
});

describe('loops proposed by the chat model in the extension', () => {
  const settings = { 'graphitiMemory.enabled': true, 'graphitiMemory.groupIdStrategy': 'raw' };
  const turn = { id: 'r1', sessionId: 'chat-1', user: { text: 'Ship it; we still have to document the new flags.', timestamp: '2026-11-25T10:00:00Z' }, assistant: { text: 'Shipped.', timestamp: '2026-11-25T10:00:01Z' } };
  const sentMessages = () =>
    harness?.emulator.requests.filter((entry) => entry.path === '/messages').flatMap((entry) => (entry.body as { messages: { name: string; content: string }[] }).messages) ?? [];

  async function closeSession(extra: Record<string, unknown>, consented = true): Promise<Harness> {
    harness = await activateExtension({ settings: { ...settings, ...extra }, consented });
    const ingestion = harness.container.get<Ingestion>(Ingestion);
    ingestion.enqueue(turn);
    ingestion.endSession('chat-1');
    return harness;
  }

  it('keeps the proposals for review and opens the loop, with its task_update, only when one is approved', async () => {
    const model = new FakeLanguageModel({ reply: [ANSWER] });
    useChatModels(model);
    const { container } = await closeSession({ 'graphitiMemory.loops.proposeWithModel': true, 'graphitiMemory.autoPromote.review': false });
    const review = container.get<ReviewQueue>(ReviewQueue);
    await waitFor(async () => (await review.list()).length > 0, 10_000, 'the loop proposal waiting for review');
    expect(model.lastPrompt()).toContain('user: Ship it; we still have to document the new flags.');
    const [pending] = await review.list();
    expect(pending).toMatchObject({ source: 'loop-proposal', kind: 'task_update', text: 'Open loop: document the new flags', sessionId: 'chat-1' });
    const loops = container.get<LoopService>(LoopService);
    // Waiting in review: no loop, nothing sent about it.
    expect((await loops.list())?.loops).toEqual([]);
    expect(sentMessages().some((message) => message.content.includes('document the new flags') && message.content.includes('task_update'))).toBe(false);

    // The view names who proposed it; its approve command opens the loop.
    const roots = (await episodesProvider().getChildren()) ?? [];
    const pendingRoot = roots.find((node) => node.type === 'pendingRoot');
    const [node] = pendingRoot === undefined ? [] : ((await episodesProvider().getChildren(pendingRoot)) ?? []);
    expect((await episodesProvider().getTreeItem(node!)).description).toBe('proposed by the chat model from a session');
    expect(await harness?.command('graphitiMemory.pending.approve', node)).toMatchObject({ ok: true, status: 'sent', message: 'Graphiti Memory: the loop is open.' });
    expect((await loops.list())?.loops.map((loop) => [loop.text, loop.evidence.sessionId, loop.evidence.marker])).toEqual([['document the new flags', 'chat-1', 'model']]);
    await waitFor(() => sentMessages().some((message) => message.content.includes('Open loop (VS Code chat): document the new flags')), 10_000, 'the task_update reaching the emulator');
  });

  it('never asks the model by default (loops.proposeWithModel off)', async () => {
    const model = new FakeLanguageModel({ reply: [ANSWER] });
    useChatModels(model);
    const { container } = await closeSession({});
    await waitFor(() => sentMessages().some((message) => message.name === 'graphiti-memory.digest.chat-1.r1'), 10_000, 'the digest reaching the emulator');
    await container.get<LoopProposals>(LoopProposals).settled();
    expect(model.requests).toEqual([]);
    expect(await container.get<ReviewQueue>(ReviewQueue).list()).toEqual([]);
  });

  it('never asks the model without consent, setting on or not', async () => {
    const model = new FakeLanguageModel({ reply: [ANSWER] });
    useChatModels(model);
    const { container } = await closeSession({ 'graphitiMemory.loops.proposeWithModel': true }, false);
    const proposals = container.get<LoopProposals>(LoopProposals);
    expect(await proposals.propose([{ name: 'graphiti-memory.digest.chat-1.r1', sessionId: 'chat-1', groupId: 'g', transcript: 'user: hi', turns: 1 }])).toEqual({ status: 'skipped', reason: 'gate-closed' });
    await proposals.settled();
    expect(model.requests).toEqual([]);
  });

  it('says why a done proposal whose loop was closed meanwhile is not approved, and drops it', async () => {
    let doneId = '';
    const model = new FakeLanguageModel({ reply: () => [JSON.stringify({ open: [], done: [doneId] })] });
    useChatModels(model);
    harness = await activateExtension({ settings: { ...settings, 'graphitiMemory.loops.proposeWithModel': true }, consented: true });
    const { container } = harness;
    const ingestion = container.get<Ingestion>(Ingestion);
    ingestion.enqueue({ ...turn, id: 'r0', sessionId: 'chat-0', assistant: { text: 'TODO: document the new flags', timestamp: '2026-11-25T09:00:01Z' } });
    ingestion.endSession('chat-0');
    const loops = container.get<LoopService>(LoopService);
    await waitFor(async () => ((await loops.list())?.loops.length ?? 0) > 0, 10_000, 'the TODO captured as a loop');
    doneId = (await loops.list())?.loops[0]?.id ?? '';
    ingestion.enqueue(turn);
    ingestion.endSession('chat-1');
    const review = container.get<ReviewQueue>(ReviewQueue);
    await waitFor(async () => (await review.list()).some((memory) => memory.loop?.action === 'done'), 10_000, 'the done proposal waiting for review');
    expect(await loops.close(doneId, 'dropped')).toMatchObject({ ok: true });
    const roots = (await episodesProvider().getChildren()) ?? [];
    const pendingRoot = roots.find((node) => node.type === 'pendingRoot');
    const [node] = pendingRoot === undefined ? [] : ((await episodesProvider().getChildren(pendingRoot)) ?? []);
    const result = await harness.command<{ ok: boolean; status: string; message: string }>('graphitiMemory.pending.approve', node);
    expect(result).toMatchObject({ ok: false, status: 'not-applied' });
    expect(result?.message).toContain('no longer open');
    expect(await review.list()).toEqual([]);
  });
});
