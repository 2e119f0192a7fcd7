// Loops proposed by the chat model (`loops.proposeWithModel`): asked only when the setting is on, a
// proposer is bound and the gate is open; what it proposes waits in pending review (even with
// `autoPromote.review` off), and approving opens or closes the loop through LoopService.
import { describe, expect, it } from 'vitest';
import { FakeValues } from '../../test-support/secret-corpus/fake-values.js';
import { RecordingLogger } from '../../test-support/fakes.js';
import { createPolicyServices } from '../../test-support/memory-services.js';
import { FakeGraphiti, makeTurn } from '../../test-support/ingestion.js';
import { InMemoryDigestSegmentStore } from '../digest/digest-segment-store.js';
import { InMemoryDeliveryLedger } from '../ingestion/in-memory-delivery-ledger.js';
import { InMemoryOutbox } from '../ingestion/in-memory-outbox.js';
import { IngestionService } from '../ingestion/ingestion-service.js';
import type { ChatTurn, IngestionStorage, IngestionStore, OutboxEntry } from '../ports.js';
import { ReviewQueue } from '../review/review-queue.js';
import type { ClosedSessionDigest } from './loop-proposals.js';
import { LoopProposals } from './loop-proposals.js';
import type { LoopProposalAnswer, LoopProposalRequest, LoopProposer } from './loop-proposer.js';

const fake = new FakeValues('loop proposal tests');
const githubToken = `ghp_${fake.alphanumeric(36)}`;

/** A chat model that answers what the test says and records what it was asked. */
class FakeProposer implements LoopProposer {
  readonly requests: LoopProposalRequest[] = [];
  constructor(private readonly answer: (request: LoopProposalRequest) => LoopProposalAnswer | Promise<LoopProposalAnswer>) {}
  async propose(request: LoopProposalRequest): Promise<LoopProposalAnswer> {
    this.requests.push(request);
    return this.answer(request);
  }
}

const answering = (value: unknown): FakeProposer => new FakeProposer(() => ({ ok: true, answer: JSON.stringify(value) }));

function setup(options: { readonly proposer?: LoopProposer; readonly settings?: Record<string, unknown>; readonly consentFor?: string | null } = {}) {
  const services = createPolicyServices({
    settings: { enabled: true, endpoint: 'http://localhost:8000', loops: { proposeWithModel: true }, ...options.settings },
    ...(options.consentFor === undefined ? {} : { consentFor: options.consentFor }),
  });
  const logger = new RecordingLogger();
  const proposals = new LoopProposals(services.configuration, services.gate, services.loops, services.promotion, services.clock, logger, options.proposer, services.pending, undefined, { tool: 'vscode-extension' });
  const sent: OutboxEntry[] = [];
  const review = new ReviewQueue(services.promotion, services.pending, { enqueueEntries: (entries) => sent.push(...entries) }, services.configuration, services.clock, undefined, undefined, services.loops);
  return { services, proposals, review, sent, logger };
}

async function digest(services: ReturnType<typeof setup>['services'], sessionId = 'session-7'): Promise<ClosedSessionDigest> {
  return {
    name: `graphiti-memory.digest.${sessionId}.t1`,
    sessionId,
    groupId: (await services.groups.resolve('session', { sessionId })) ?? 'session-group',
    transcript: 'user: we still have to document the new flags\nassistant: the migration test for the retry budget is in now',
    turns: 2,
    at: '2026-11-21T10:00:00.000Z',
    tool: 'VS Code chat',
  };
}

function turn(reply: string): ChatTurn {
  return { id: 't0', sessionId: 'session-1', user: { text: 'Go on.', timestamp: '2026-11-20T09:00:00Z' }, assistant: { text: reply, timestamp: '2026-11-20T09:00:05Z' }, participant: 'claude-code' };
}

const episodeTexts = (entries: readonly OutboxEntry[]): string[] => entries.map((entry) => /\n(.*)\n<\/graphiti_episode>/.exec(entry.message.content)?.[1] ?? '');

describe('LoopProposals', () => {
  it('keeps what the model proposes for review only, even with autoPromote.review off, and sends nothing', async () => {
    let done: string[] = [];
    const proposer = new FakeProposer(() => ({ ok: true, answer: JSON.stringify({ open: [{ text: 'document the new flags' }], done }) }));
    const { services, proposals, sent } = setup({ proposer, settings: { autoPromote: { enabled: true, review: false } } });
    await services.planner.plan(turn('TODO: add a migration test for the retry budget'));
    const [open] = await services.loopStore.list();
    done = [open?.id ?? ''];
    expect(await proposals.propose([await digest(services)])).toMatchObject({ status: 'proposed', refused: 0 });
    expect(proposer.requests[0]?.prompt).toContain(`${open?.id}: add a migration test for the retry budget`);
    expect(proposer.requests[0]?.prompt).toContain('user: we still have to document the new flags');
    const pending = await services.pending.list();
    expect(pending.map((memory) => [memory.source, memory.kind, memory.scope, memory.text])).toEqual([
      ['loop-proposal', 'task_update', 'workspace', 'Open loop: document the new flags'],
      ['loop-proposal', 'task_update', 'workspace', 'Loop done: add a migration test for the retry budget'],
    ]);
    // A forget of the workspace or of the session it came from drops it.
    expect(pending[0]?.groupIds).toEqual([await services.groups.resolve('workspace'), await services.groups.resolve('session', { sessionId: 'session-7' })]);
    // Nothing went in: the loops are as they were, nothing was sent.
    expect((await services.loopStore.list()).map((loop) => loop.status)).toEqual(['open']);
    expect(sent).toEqual([]);
  });

  it('opens the proposed loop on approval, with the session as evidence, and plans its task_update episode', async () => {
    const { services, proposals, review, sent } = setup({ proposer: answering({ open: [{ text: 'document the new flags' }], done: [] }) });
    await proposals.propose([await digest(services)]);
    const [memory] = await services.pending.list();
    const outcome = await review.approve(memory?.id ?? '');
    expect(outcome.status).toBe('sent');
    expect(episodeTexts(sent)).toEqual(['Open loop (VS Code chat): document the new flags']);
    expect(await services.loopStore.list()).toEqual([
      expect.objectContaining({ text: 'document the new flags', status: 'open', evidence: { tool: 'VS Code chat', sessionId: 'session-7', at: '2026-11-21T10:00:00.000Z', marker: 'model' } }),
    ]);
    expect(await services.pending.list()).toEqual([]);
  });

  it('takes the user edit of an open proposal as the loop text', async () => {
    const { services, proposals, review } = setup({ proposer: answering({ open: [{ text: 'document the new flags' }], done: [] }) });
    await proposals.propose([await digest(services)]);
    const [memory] = await services.pending.list();
    await review.approve(memory?.id ?? '', { text: 'Open loop: document the --dry-run flag' });
    expect((await services.loopStore.list()).map((loop) => loop.text)).toEqual(['document the --dry-run flag']);
  });

  it('closes the open loop it names on approval; rejecting leaves the loops alone', async () => {
    const { services, review, sent } = setup();
    await services.planner.plan(turn('TODO: add a migration test for the retry budget\nTODO: check why the staging deploy is slow'));
    const loops = await services.loopStore.list();
    const proposer = answering({ open: [], done: loops.map((loop) => loop.id) });
    const proposals = new LoopProposals(services.configuration, services.gate, services.loops, services.promotion, services.clock, new RecordingLogger(), proposer, services.pending);
    await proposals.propose([await digest(services)]);
    const [first, second] = await services.pending.list();
    expect(await review.reject(second?.id ?? '')).toMatchObject({ status: 'rejected' });
    expect(await review.approve(first?.id ?? '')).toMatchObject({ status: 'sent' });
    expect(episodeTexts(sent)).toEqual(['Loop done (VS Code chat): add a migration test for the retry budget']);
    const after = await services.loopStore.list();
    expect(after.map((loop) => [loop.text, loop.status])).toEqual([
      ['add a migration test for the retry budget', 'done'],
      ['check why the staging deploy is slow', 'open'],
    ]);
    expect(after[0]?.closed).toEqual({ tool: 'VS Code chat', sessionId: 'session-7', at: '2026-11-21T10:00:00.000Z', marker: 'model' });
  });

  it('drops a done proposal whose loop was closed meanwhile, sending nothing', async () => {
    const { services, review, sent } = setup();
    await services.planner.plan(turn('TODO: add a migration test for the retry budget'));
    const [loop] = await services.loopStore.list();
    const proposals = new LoopProposals(services.configuration, services.gate, services.loops, services.promotion, services.clock, new RecordingLogger(), answering({ open: [], done: [loop?.id] }), services.pending);
    await proposals.propose([await digest(services)]);
    await services.loops.close(loop?.id ?? '', 'dropped');
    const [memory] = await services.pending.list();
    expect(await review.approve(memory?.id ?? '')).toMatchObject({ status: 'not-applied', reason: 'not-open', kept: false });
    expect(sent).toEqual([]);
    expect(await services.pending.list()).toEqual([]);
  });

  it('refuses a proposal holding a secret: never pending, never a loop', async () => {
    const { services, proposals } = setup({ proposer: answering({ open: [{ text: `rotate ${githubToken} before Friday` }, { text: 'update the docs' }], done: [] }) });
    const outcome = await proposals.propose([await digest(services)]);
    expect(outcome).toMatchObject({ status: 'proposed', refused: 1 });
    expect((await services.pending.list()).map((memory) => memory.text)).toEqual(['Open loop: update the docs']);
    expect(JSON.stringify(await services.pending.list())).not.toContain(githubToken);
  });

  it('ignores an answer that is not the format, whole', async () => {
    const { services, proposals, logger } = setup({ proposer: answering('Sure: TODO document the flags') });
    proposals.offer([await digest(services)]);
    await proposals.settled();
    expect(await services.pending.list()).toEqual([]);
    expect(logger.lines.map((line) => line.message)).toContain('loops: the chat model did not answer in the loop format; its answer was ignored');
  });

  it.each([
    ['the setting is off', { settings: { loops: { proposeWithModel: false } } }],
    ['memory is off', { settings: { enabled: false } }],
    ['there is no consent', { consentFor: null }],
  ])('asks nothing when %s', async (_name, options) => {
    const proposer = answering({ open: [{ text: 'document the new flags' }], done: [] });
    const { services, proposals } = setup({ proposer, ...options });
    proposals.offer([await digest(services)]);
    await proposals.settled();
    expect(await proposals.propose([await digest(services)])).toMatchObject({ status: 'skipped' });
    expect(proposer.requests).toEqual([]);
    expect(await services.pending.list()).toEqual([]);
  });

  it('asks once per session in the background, not again for the same digest, and proposes nothing when the model gives no answer', async () => {
    const proposer = new FakeProposer(() => ({ ok: false, reason: 'no-model' }));
    const { services, proposals } = setup({ proposer });
    const workspaceDigest = { ...(await digest(services)), name: 'graphiti-memory.digest.session-7.t1#workspace', groupId: (await services.groups.resolve('workspace')) ?? '' };
    proposals.offer([await digest(services), workspaceDigest]);
    proposals.offer([await digest(services)]);
    await proposals.settled();
    expect(proposer.requests).toHaveLength(1);
    expect(await services.pending.list()).toEqual([]);
  });

  it('is asked when a session digest closes in ingestion, with the filtered turns, and leaves the digest as it was', async () => {
    const proposer = answering({ open: [{ text: 'run the build script on CI too' }], done: [] });
    const services = createPolicyServices({ api: new FakeGraphiti(), settings: { enabled: true, endpoint: 'http://localhost:8000', scopes: 'both', loops: { proposeWithModel: true } } });
    const proposals = new LoopProposals(services.configuration, services.gate, services.loops, services.promotion, services.clock, new RecordingLogger(), proposer, services.pending, undefined, { tool: 'vscode-extension' });
    const store: IngestionStore = { outbox: new InMemoryOutbox(services.configuration, services.clock), ledger: new InMemoryDeliveryLedger(), segments: new InMemoryDigestSegmentStore() };
    const storage: IngestionStorage = { open: () => Promise.resolve(store), current: () => store, close: () => Promise.resolve() };
    const logger = new RecordingLogger();
    // prettier-ignore
    const ingestion = new IngestionService(services.planner, storage, services.connection, services.gate, services.configuration, services.clock, logger, services.telemetry, { random: () => 0.5 }, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, proposals);
    for (const index of [0, 1]) ingestion.enqueue(makeTurn(index));
    await ingestion.settled();
    expect(proposer.requests).toEqual([]);
    ingestion.endSession('s1');
    await ingestion.settled();
    await proposals.settled();
    // The session's two digests (session and workspace group) made one question.
    expect(proposer.requests).toHaveLength(1);
    expect(proposer.requests[0]?.prompt).toContain('question number 0 about the build');
    expect((await services.pending.list()).map((memory) => [memory.text, memory.sessionId])).toEqual([['Open loop: run the build script on CI too', 's1']]);
    const digests = (await store.outbox.pending(100)).map((record) => record.message.content);
    expect(digests).toHaveLength(2);
    for (const content of digests) expect(content).not.toContain('CI too');
  });
});
