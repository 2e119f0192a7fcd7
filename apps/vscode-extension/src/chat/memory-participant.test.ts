import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
  LanguageModelError,
  noCancellation,
  testHost,
} from '../test-support/vscode-double.js';
import * as vscodeApi from 'vscode';
import { factLine, historyMessages, memoryFooter } from './chat-history.js';
import { FACT_SCHEME } from './fact-references.js';
import { ASKED_CONTEXT, modelFailure, PARTICIPANT_ID, RECALL_OFF_ANSWER } from './memory-participant.js';


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

  it('lists the facts it used as references named by the fact and its date, each opening the fact', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    await ask('We deploy the API with Fly.io.');
    await storedInBothGroups(harness);
    const { stream, result } = await ask('How do we deploy the API?');
    const used = (result.metadata as { factsUsed: number }).factsUsed;
    // Listed under the answer too, each with its dates and scope.
    expect(stream.text()).toMatch(/Graphiti memory: \d+ facts? used\._\n\n- We deploy the API with Fly\.io.* _\(since \d{4}-\d{2}-\d{2}, (session|workspace)\)_/);
    const references = stream.parts.filter((part) => part.kind === 'reference').map((part) => vscodeApi.Uri.parse(part.kind === 'reference' ? part.value : ''));
    expect(used).toBeGreaterThan(0);
    expect(references).toHaveLength(used);
    expect(references[0]?.scheme).toBe(FACT_SCHEME);
    expect(references.map((uri) => uri.path)).toContainEqual(expect.stringMatching(/^\/We deploy the API with Fly\.io.* \(since \d{4}-\d{2}-\d{2}\)$/));
    const document = await vscodeApi.workspace.openTextDocument(references[0]!);
    expect(document.getText()).toMatch(/Fly\.io/);
    expect(document.getText()).toMatch(/- Holds: since \d{4}-\d{2}-\d{2}/);
    expect(document.getText()).toMatch(/- Came from: 1 episode\(s\): /);
    // The walkthrough's "Ask @memory" step completes on this.
    expect(testHost().contextKeys.get(ASKED_CONTEXT)).toBe(true);
  });

  it('ends each fact of its footer as the prompt ends it: a fact naming a file that is gone says so', async () => {
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'memory-footer-'));
    // `src` is of the workspace, `src/gone-parser.ts` is not there (any more).
    fs.mkdirSync(path.join(workspace, 'src'));
    const harness = await activateExtension({ settings: ON, consented: true, workspaceFolder: workspace });
    await ask('The parser lives in src/gone-parser.ts.');
    await storedInBothGroups(harness);
    const { stream, model } = await ask('Where does the parser live?');
    expect(model.lastPrompt()).toContain('(may be stale: src/gone-parser.ts is gone)');
    // prompt-elements' factLineSuffix, Markdown neutralised like the fact.
    expect(stream.text()).toMatch(/\n- The parser lives in src\/gone-parser\.ts.* _\(since \d{4}-\d{2}-\d{2}, (session|workspace)\)_ \\\(may be stale: src\/gone-parser\.ts is gone\\\)/);
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  it('keeps the fact list out of the history sent to the model, and neutralises Markdown in recalled text', async () => {
    expect(factLine('See [this](command:evil) *now*', 'since 2026-01-02', 'user')).toBe('See \\[this\\]\\(command:evil\\) \\*now\\* _(since 2026-01-02, user)_');
    const footer = memoryFooter(['A fact _(since 2026-01-02, workspace)_'], 'hit');
    const history = [
      new ChatRequestTurn('Question?', undefined, [], PARTICIPANT_ID),
      new ChatResponseTurn([new ChatResponseMarkdownPart(`The answer.${footer}`)], { metadata: { sessionId: 's' } }, PARTICIPANT_ID),
    ] as unknown as vscode.ChatContext['history'];
    expect(historyMessages(createChatContext(history))).toEqual([
      { role: 'user', text: 'Question?' },
      { role: 'assistant', text: 'The answer.' },
    ]);
  });

  it('offers "Show what memory recalls" for the question just asked, not a fixed sentence', async () => {
    await activateExtension({ settings: ON, consented: true });
    const { result } = await ask('Which database does staging use?');
    const participant = chatRegistrations().participants.get(PARTICIPANT_ID)!;
    const followups = (await participant.followupProvider?.provideFollowups(result, createChatContext([]), noCancellation())) ?? [];
    expect(followups).toEqual([{ prompt: 'Which database does staging use?', command: 'recall', label: 'Show what memory recalls' }]);
  });

  it("says a fact once per chat session: a later turn's recall leaves out what an earlier turn gave, unless it changed", async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    await ask('We deploy the API with Fly.io.');
    await storedInBothGroups(harness);
    const first = await ask('How do we deploy the API?');
    expect(first.result.metadata).toMatchObject({ factsUsed: 1 });
    const turn = (prompt: string, result: vscode.ChatResult) => [
      new ChatRequestTurn(prompt, undefined, [], PARTICIPANT_ID),
      new ChatResponseTurn([new ChatResponseMarkdownPart('Noted, thanks.')], result, PARTICIPANT_ID),
    ];
    const history = turn('How do we deploy the API?', first.result) as unknown as vscode.ChatContext['history'];
    const second = await ask('And where do we deploy the API?', { history });
    // Recall found the fact again; the prompt carries it once (with the conversation), the turn adds none.
    expect(second.model.lastPrompt().match(/deploy the API with Fly\.io/g)).toHaveLength(1);
    expect(second.result.metadata).toMatchObject({ factsUsed: 0 });
    expect(second.stream.text()).not.toMatch(/facts? used/);

    // Graphiti changed the fact: the next turn gives the new version, and only it.
    // (The turn went to its session's group and the workspace's: both copies change.)
    const stored = harness.emulator.state.facts().filter((fact) => fact.fact.includes('Fly.io'));
    expect(stored.length).toBeGreaterThan(0);
    for (const fact of stored) fact.fact = 'We deploy the API with Fly.io in two regions';
    const third = await ask('How do we deploy the API now?', { history: [...history, ...turn('And where do we deploy the API?', second.result)] as unknown as vscode.ChatContext['history'] });
    expect(third.result.metadata).toMatchObject({ factsUsed: 1 });
    expect(third.model.lastPrompt()).toContain('Fly.io in two regions');
    expect(third.model.lastPrompt().match(/deploy the API with Fly\.io/g)).toHaveLength(1);

    // Another chat session is given the fact again.
    const other = await ask('How do we deploy the API?');
    expect(other.result.metadata).toMatchObject({ factsUsed: 1 });
  });

  it("names the workspace's open loops once per chat session, with age and source", async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    await ask('Make the retry budget configurable.', { model: new FakeLanguageModel({ reply: ['Done.\n\nTODO: add a migration test for the retry budget'] }) });
    await waitFor(() => messagesSent(harness).some((message) => message.content.includes('kind="task_update"')), 5000, 'the loop to reach Graphiti');
    const first = await ask('What next?');
    expect(first.stream.text()).toMatch(/Open loops in this workspace:\*\*\n\n- add a migration test for the retry budget \(open for [^,]+, VS Code chat\)/);
    const history = [
      new ChatRequestTurn('What next?', undefined, [], PARTICIPANT_ID),
      new ChatResponseTurn([new ChatResponseMarkdownPart('Noted, thanks.')], first.result, PARTICIPANT_ID),
    ] as unknown as vscode.ChatContext['history'];
    expect((await ask('And then?', { history })).stream.text()).not.toContain('Open loops');
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
    const harness = await activateExtension({
      settings: { ...ON, 'graphitiMemory.recall.timeoutMs': 200 },
      consented: true,
      // Its health check hangs too: otherwise the health probe may turn the status back on before it is read.
      emulator: { faults: { search: { hangRate: 1 }, healthcheck: { hangRate: 1 } } } });
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

  it('/remember parses kind and scope, queues the memory and answers in words (never the stored markup)', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    const { stream } = await ask('decision workspace We use zod for validation.', { command: 'remember' });
    expect(stream.text()).toBe('Saved to this workspace’s memory as a decision: “We use zod for validation.” It is on its way to your Graphiti server.');
    await waitFor(() => messagesSent(harness!).some((message) => message.role_type === 'system'), 5000, 'the promotion to reach Graphiti');
    expect(messagesSent(harness).find((message) => message.role_type === 'system')?.content).toContain('We use zod for validation.');
  });

  it('/forget offers the confirming command and /status reports the state', async () => {
    await activateExtension();
    const forget = await ask('', { command: 'forget' });
    expect(forget.stream.parts).toContainEqual({ kind: 'button', command: 'graphitiMemory.forgetWorkspace', title: 'Forget Workspace Memory…' });
    const status = await ask('', { command: 'status' });
    expect(status.stream.text()).toContain('Memory is off');
    expect(status.stream.parts).toContainEqual({ kind: 'button', command: 'graphitiMemory.enable', title: 'Enable Here' });
  });
});

describe('@memory while recall is off (the default)', () => {
  const RECALL_OFF = { 'graphitiMemory.enabled': true };

  it('/recall says recall is off, with a button that turns it on, and searches nothing', async () => {
    const harness = await activateExtension({ settings: RECALL_OFF, consented: true });
    await harness.command('graphitiMemory.promote', { kind: 'decision', scope: 'workspace', text: 'We deploy with Fly.io.' });
    const { stream, result } = await ask('how do we deploy?', { command: 'recall' });
    expect(stream.text()).toBe(RECALL_OFF_ANSWER);
    expect(stream.text()).not.toContain('holds no facts');
    expect(stream.parts).toContainEqual({ kind: 'button', command: 'graphitiMemory.enableRecall', title: 'Turn Recall On' });
    expect(result.metadata).toMatchObject({ recallOff: true });
    expect(harness.emulator.requests.some((request) => request.path === '/search')).toBe(false);
  });

  it('an answer ends with a footer saying recall is off (kept out of the history) and the same button', async () => {
    await activateExtension({ settings: RECALL_OFF, consented: true });
    const { stream, model } = await ask('how do we deploy?');
    expect(stream.text()).toContain('Noted, thanks.');
    expect(stream.text()).toContain('Memory recall is off: answered without looking anything up.');
    expect(stream.parts).toContainEqual({ kind: 'button', command: 'graphitiMemory.enableRecall', title: 'Turn Recall On' });
    const history = [
      new ChatRequestTurn('how do we deploy?', undefined, [], PARTICIPANT_ID),
      new ChatResponseTurn([new ChatResponseMarkdownPart(stream.text())], { metadata: { sessionId: 's' } }, PARTICIPANT_ID),
    ] as unknown as vscode.ChatContext['history'];
    const next = await ask('and the database?', { history, model });
    expect(next.model.lastPrompt()).not.toContain('recall is off');
  });

  it('with recall on, no footer about it', async () => {
    await activateExtension({ settings: ON, consented: true });
    const { stream } = await ask('how do we deploy?');
    expect(stream.text()).not.toContain('recall is off');
  });
});

describe('@memory without a chat model', () => {
  it('says a model is needed and how to get one, instead of a bare "Language model unavailable"', async () => {
    await activateExtension({ settings: ON, consented: true });
    const model = new FakeLanguageModel({ failWith: new Error('Language model unavailable') });
    const { result } = await ask('hello', { model });
    expect(result.errorDetails?.message).toContain('@memory needs a chat model and none is available');
    expect(result.errorDetails?.message).toContain('model picker');
  });

  it('names a model the extension may not use as such', () => {
    expect(modelFailure(LanguageModelError.NoPermissions())).toContain('may not use the chosen chat model');
    expect(modelFailure(LanguageModelError.NotFound())).toContain('none is available');
  });
});


describe('@memory under the configured filter', () => {
  const codeLine = 'export const retryBudgetMs = 30_000;';
  const reply = ['Set it in the delivery module:\n\n```ts\n', `${codeLine}\n`, ...Array.from({ length: 11 }, (_, index) => `export const other${index} = ${index};\n`), '```\n\nLower it for tests.'];
  const assistantText = (harness: Harness): string =>
    messagesSent(harness)
      .filter((message) => message.role_type === 'assistant')
      .map((message) => message.content)
      .join('\n');

  it('sends the code of its answer as one line by default (compact), the prose whole', async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    const { stream } = await ask('Where is the retry budget set?', { model: new FakeLanguageModel({ reply }) });
    expect(stream.text()).toContain(codeLine);
    await waitFor(() => assistantText(harness) !== '', 5000, 'the answer to reach Graphiti');
    expect(assistantText(harness)).toContain('[code: ts, 12 lines]');
    expect(assistantText(harness)).toContain('Lower it for tests.');
    expect(assistantText(harness)).not.toContain(codeLine);
  });

  it('follows graphitiMemory.filter per kind: code omitted', async () => {
    const harness = await activateExtension({ settings: { ...ON, 'graphitiMemory.filter': { preset: 'compact', code: 'omit' } }, consented: true });
    await ask('Where is the retry budget set?', { model: new FakeLanguageModel({ reply }) });
    await waitFor(() => assistantText(harness) !== '', 5000, 'the answer to reach Graphiti');
    expect(assistantText(harness)).toContain('Set it in the delivery module:');
    expect(assistantText(harness)).not.toContain('[code:');
    expect(assistantText(harness)).not.toContain(codeLine);
  });
});
