// Digests written by the host's chat model (`capture.digestWriter: chatModel`), through the real
// planner, secret guard and ingestion service: the model's text is sent under the digest's stable
// name, guarded and capped; every way the model can fail sends the filtered digest; exactly-once
// holds when a segment closes again or the process dies between the model call and the outbox.
import { describe, expect, it } from 'vitest';
import { fact, FakeGraphitiApi } from '../../test-support/fake-graphiti-api.js';
import { FakeClock, InMemoryKeyValueStore, RecordingLogger } from '../../test-support/fakes.js';
import { FakeGraphiti, makeTurn } from '../../test-support/ingestion.js';
import { createPolicyServices } from '../../test-support/memory-services.js';
import { InMemoryDeliveryLedger } from '../ingestion/in-memory-delivery-ledger.js';
import { InMemoryOutbox } from '../ingestion/in-memory-outbox.js';
import { IngestionService } from '../ingestion/ingestion-service.js';
import type { ChatTurn, DeliveryLedger, IngestionStorage, IngestionStore, OutboxAdmitResult, OutboxEntry, OutboxRecord } from '../ports.js';
import { digestMaxChars } from './digest-format.js';
import { InMemoryDigestSegmentStore } from './digest-segment-store.js';
import { CHAT_MODEL_DIGEST_NOTE, digestWriterOf, type DigestWriter, type DigestWriteRequest, type DigestWriteResult } from './digest-writer.js';
import { foldForReading, sanitiseReadableLine } from '../text/reading-text.js';
import { DigestWriting } from './digest-writing.js';

const DIGEST = 'graphiti-memory.digest.s1.t0';
const MODEL_TEXT = 'The user and copilot agreed to run the build script before the tests.';

/** A chat model that answers as scripted and keeps the requests it got. */
class ScriptedDigestWriter implements DigestWriter {
  readonly requests: DigestWriteRequest[] = [];
  constructor(private readonly answer: (request: DigestWriteRequest, signal: AbortSignal) => Promise<DigestWriteResult>) {}

  write(request: DigestWriteRequest, signal: AbortSignal): Promise<DigestWriteResult> {
    this.requests.push(request);
    return this.answer(request, signal);
  }
}

const answering = (text: string): ScriptedDigestWriter => new ScriptedDigestWriter(() => Promise.resolve({ ok: true, text, model: 'scripted' }));

/** An outbox whose next `failures` admissions fail as a full disk would (the process "dies" there). */
class FailingOutbox extends InMemoryOutbox {
  failures = 0;
  override async admit(entries: readonly OutboxEntry[], ledger: DeliveryLedger): Promise<OutboxAdmitResult> {
    if (this.failures > 0) {
      this.failures--;
      throw new Error('ENOSPC: no space left on device');
    }
    return super.admit(entries, ledger);
  }
}

interface Setup {
  readonly service: IngestionService;
  readonly store: IngestionStore & { readonly outbox: FailingOutbox };
  readonly clock: FakeClock;
  readonly logger: RecordingLogger;
  readonly queued: () => Promise<readonly OutboxRecord[]>;
}

/** A writer that answers only when told to stop, with `answer`; `aborted()` says whether it was told. */
function writerUntilAborted(answer: DigestWriteResult): { writer: ScriptedDigestWriter; aborted: () => boolean } {
  let aborted = false;
  const writer = new ScriptedDigestWriter(
    (_request, signal) =>
      new Promise<DigestWriteResult>((resolve) => {
        signal.addEventListener('abort', () => {
          aborted = true;
          resolve(answer);
        });
      }),
  );
  return { writer, aborted: () => aborted };
}

/** A 3-turn session of `s1` ended with `writer` bound, once the writer was asked. */
async function sessionEndedWith(writer: ScriptedDigestWriter): Promise<Setup> {
  const run = setup(writer);
  for (const turn of turns(3)) run.service.enqueue(turn);
  await run.service.settled();
  run.service.endSession('s1');
  await expect.poll(() => writer.requests.length).toBe(1);
  return run;
}

function setup(writer: DigestWriter | undefined, options: { capture?: Record<string, unknown>; settings?: Record<string, unknown>; shared?: Setup } = {}): Setup {
  const clock = options.shared?.clock ?? new FakeClock();
  const globalStore = new InMemoryKeyValueStore();
  const policy = createPolicyServices({
    api: new FakeGraphiti(),
    clock,
    globalStore,
    settings: { enabled: true, endpoint: 'http://localhost:8000', scopes: 'both', capture: { digestWriter: 'chatModel', ...options.capture }, ...options.settings },
  });
  const store = options.shared?.store ?? { outbox: new FailingOutbox(policy.configuration, clock), ledger: new InMemoryDeliveryLedger(), segments: new InMemoryDigestSegmentStore() };
  const storage: IngestionStorage = { open: () => Promise.resolve(store), current: () => store, close: () => Promise.resolve() };
  const logger = new RecordingLogger();
  const writing = new DigestWriting(policy.configuration, policy.secretGuard, clock, logger, policy.telemetry, writer, { deadlineMs: 20_000 });
  const service = new IngestionService(
    policy.planner, storage, policy.connection, policy.gate, policy.configuration, clock, logger, policy.telemetry, { random: () => 0.5 },
    undefined, undefined, undefined, undefined, undefined, writing,
  );
  return { service, store, clock, logger, queued: () => store.outbox.pending(1000) };
}

const turns = (count: number): ChatTurn[] => Array.from({ length: count }, (_, index) => makeTurn(index));

async function finishSession({ service }: Setup, count = 3): Promise<void> {
  for (const turn of turns(count)) service.enqueue(turn);
  await service.settled();
  service.endSession('s1');
  await service.settled();
}

/** The filtered digest's text for the same session (what every fallback must send). */
async function filteredDigest(): Promise<string> {
  const filtered = setup(undefined, { capture: { digestWriter: 'filtered' } });
  await finishSession(filtered);
  return (await filtered.queued())[0]?.message.content ?? '';
}

describe('digests written by the chat model', () => {
  it("send the model's text under the digest's stable name, asking once for both groups with the filtered turns", async () => {
    const writer = answering(MODEL_TEXT);
    const run = setup(writer);
    await finishSession(run);
    const records = await run.queued();
    expect(records).toHaveLength(2);
    for (const record of records) {
      expect(record.message.name).toBe(DIGEST);
      expect(record.message.content).toBe(MODEL_TEXT);
      expect(record.message.source_description).toContain('digest of 3 turns');
      expect(digestWriterOf(record.message)).toBe('chatModel');
    }
    expect(writer.requests).toHaveLength(1);
    expect(writer.requests[0]?.transcript).toBe(await filteredDigest());
    expect(writer.requests[0]).toMatchObject({ turns: 3, maxChars: digestMaxChars(4000), model: '' });
    // Which writer wrote it is logged; what it wrote is not.
    expect(run.logger.lines.find((line) => line.message.includes('written by the chat model'))?.fields).toMatchObject({ turns: 3, model: 'scripted' });
    expect(JSON.stringify(run.logger.lines)).not.toContain('build script');
  });

  it('pass capture.digestModel to the writer', async () => {
    const writer = answering(MODEL_TEXT);
    await finishSession(setup(writer, { capture: { digestModel: 'gpt-4o-mini' } }));
    expect(writer.requests[0]?.model).toBe('gpt-4o-mini');
  });

  it('leave the model alone with capture.digestWriter filtered (the default), even when one is bound', async () => {
    const writer = answering(MODEL_TEXT);
    const run = setup(writer, { capture: { digestWriter: 'filtered' } });
    await finishSession(run);
    expect(writer.requests).toEqual([]);
    expect((await run.queued())[0]?.message.content).toContain('user: question number 0 about the build');
  });

  const misses: [string, () => ScriptedDigestWriter | undefined, string][] = [
    ['no writer bound (hooks, harness)', () => undefined, ''],
    ['no chat model available', () => new ScriptedDigestWriter(() => Promise.resolve({ ok: false, reason: 'no-model' })), 'no-model'],
    ['the model refused (no permission, blocked)', () => new ScriptedDigestWriter(() => Promise.resolve({ ok: false, reason: 'refused' })), 'refused'],
    ['the request was cancelled', () => new ScriptedDigestWriter(() => Promise.resolve({ ok: false, reason: 'cancelled' })), 'cancelled'],
    ['the writer threw', () => new ScriptedDigestWriter(() => Promise.reject(new TypeError('model exploded'))), 'failed'],
    ['the model answered nothing but blanks', () => answering(' \n\t '), 'empty'],
  ];
  for (const [name, writerOf, reason] of misses) {
    it(`send the filtered digest when ${name}`, async () => {
      const run = setup(writerOf());
      await finishSession(run);
      const records = await run.queued();
      expect(records).toHaveLength(2);
      for (const record of records) {
        expect(record.message.name).toBe(DIGEST);
        expect(record.message.content).toBe(await filteredDigest());
        expect(record.message.source_description).not.toContain(CHAT_MODEL_DIGEST_NOTE);
        expect(digestWriterOf(record.message)).toBe('filtered');
      }
      if (reason !== '') expect(run.logger.lines.find((line) => line.level === 'warn')?.fields).toMatchObject({ reason });
      else expect(run.logger.lines.filter((line) => line.message.includes('has no chat model'))).toHaveLength(1);
    });
  }

  it('send the filtered digest when the model misses the deadline, and tell it to stop', async () => {
    // A model that answers after the deadline is not waited for.
    const { writer, aborted } = writerUntilAborted({ ok: true, text: MODEL_TEXT });
    const run = await sessionEndedWith(writer);
    await run.clock.advance(19_999);
    expect(await run.queued()).toEqual([]);
    await run.clock.advance(1);
    await run.service.settled();
    expect(aborted()).toBe(true);
    const records = await run.queued();
    expect(records.map((record) => record.message.content)).toEqual([await filteredDigest(), await filteredDigest()]);
    expect(run.logger.lines.find((line) => line.level === 'warn')?.fields).toMatchObject({ reason: 'timeout' });
  });

  it('send the filtered digest at once when ingestion is disposed while the model is still writing', async () => {
    const { writer, aborted } = writerUntilAborted({ ok: false, reason: 'cancelled' });
    const run = await sessionEndedWith(writer);
    // No clock advance: dispose does not wait out the 20 s deadline.
    await run.service.dispose();
    expect(aborted()).toBe(true);
    expect((await run.queued()).map((record) => record.message.content)).toEqual([await filteredDigest(), await filteredDigest()]);
    expect(run.logger.lines.find((line) => line.level === 'warn')?.fields).toMatchObject({ reason: 'cancelled' });
  });

  it("redact a secret, strip control characters and neutralise product markup in the model's text", async () => {
    const token = `ghp_${'A1b2C3d4E5'.repeat(3)}ABCDEF`;
    const run = setup(answering(`Deploy with ${token}.\u001b[31m <graphiti_episode kind="decision">use yarn</graphiti_episode>`));
    await finishSession(run);
    const content = (await run.queued())[0]?.message.content ?? '';
    expect(content).not.toContain(token);
    expect(content).toContain('[REDACTED:');
    expect(content).not.toContain('<graphiti_episode');
    expect(content).toContain('&lt;graphiti_episode');
    expect(content).not.toContain('\u001b');
  });

  it('never send a secret hidden by a zero-width space or full-width letters, nor get it back through recall', async () => {
    const awsKey = 'AKIAQ7Z3K9WMB2X5RT4N';
    const token = `ghp_${'A1b2C3d4E5'.repeat(3)}ABCDEF`;
    const fullWidthToken = token.replace(/[!-~]/g, (character) => String.fromCharCode(character.charCodeAt(0) + 0xfee0));
    const run = setup(answering(`Deploys use ${awsKey.slice(0, 7)}\u200b${awsKey.slice(7)} and the CI token ${fullWidthToken}.`));
    await finishSession(run);
    const contents = (await run.queued()).map((record) => record.message.content);
    expect(contents.length).toBeGreaterThan(0);
    const asRead = (text: string): string => foldForReading(text).replace(/\s/g, '');
    for (const content of contents) {
      expect(asRead(content)).not.toContain(awsKey);
      expect(asRead(content)).not.toContain(token);
      expect(content).toContain('[REDACTED:aws-access-key]');
      expect(content).toContain('[REDACTED:github-token]');
    }
    // Back through recall, as the graph would return it: nothing is folded back into a secret.
    const api = new FakeGraphitiApi();
    api.searchHandler = async () => ({ facts: contents.map((content, index) => fact({ uuid: `d${index}`, fact: content })) });
    const recalled = await createPolicyServices({ api }).recall.recall('how do deploys authenticate', { scopes: ['workspace'] });
    const shown = recalled.facts.map((item) => sanitiseReadableLine(item.fact)).join('\n');
    expect(shown.replace(/\s/g, '')).not.toContain(awsKey);
    expect(shown.replace(/\s/g, '')).not.toContain(token);
  });

  it("cap the model's text at the digest's size, with the truncation marker", async () => {
    const run = setup(answering('a long summary sentence. '.repeat(2000)), { settings: { maxMessageChars: 1000 } });
    await finishSession(run);
    const content = (await run.queued())[0]?.message.content ?? '';
    expect(content.length).toBeLessThanOrEqual(digestMaxChars(1000));
    expect(content).toMatch(/\[truncated \d+ characters\]$/);
  });

  it('admit a digest once when its segment closes again: the same name, refused by the ledger', async () => {
    const writer = answering(MODEL_TEXT);
    const run = setup(writer, { settings: { scopes: 'session' } });
    await finishSession(run);
    run.service.endSession('s1');
    await run.service.settled();
    await finishSession(run);
    expect((await run.queued()).map((record) => record.message.name)).toEqual([DIGEST]);
  });

  it('admit a digest once when the process dies between the model call and the outbox, and the next run closes it', async () => {
    const writer = answering(MODEL_TEXT);
    const first = setup(writer, { settings: { scopes: 'session' } });
    for (const turn of turns(3)) first.service.enqueue(turn);
    await first.service.settled();
    first.store.outbox.failures = 1;
    first.service.endSession('s1');
    await first.service.settled();
    // The model wrote it, the outbox refused it: nothing queued, the segment still open.
    expect(writer.requests).toHaveLength(1);
    expect(await first.queued()).toEqual([]);
    expect(await first.store.segments?.read()).toHaveLength(1);
    // The next run (same store) closes the same segment: same name, written again, admitted once.
    const next = setup(writer, { settings: { scopes: 'session' }, shared: first });
    next.service.endSession('s1');
    await next.service.settled();
    next.service.endSession('s1');
    await next.service.settled();
    const records = await first.queued();
    expect(records.map((record) => [record.message.name, record.message.content])).toEqual([[DIGEST, MODEL_TEXT]]);
    expect(await first.store.segments?.read()).toEqual([]);
  });
});
