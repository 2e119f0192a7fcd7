import type { SearchQuery } from '@graphiti-memory/graphiti-client';
import { describe, expect, it } from 'vitest';
import { delayed, fact, FakeAbortError, FakeGraphitiApi } from '../../test-support/fake-graphiti-api.js';
import { FakeClock, flushMicrotasks } from '../../test-support/fakes.js';
import { createPolicyServices } from '../../test-support/memory-services.js';
import { errorClassOf } from '../errors/graphiti-failure.js';
import { MAX_RECALL_QUERY_CHARS, recallQueryOf } from './recall-query.js';

/** Waits (in real time: Web Crypto hashes off the main thread) until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 400 && !condition(); attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  if (!condition()) throw new Error('condition not reached within 2 s');
}

/** A search that answers only when the test says so, or rejects when aborted. */
function controllableSearch(api: FakeGraphitiApi) {
  const pending = new Map<string, (facts: ReturnType<typeof fact>[]) => void>();
  api.searchHandler = (query: SearchQuery, options) =>
    new Promise((resolve, reject) => {
      const group = query.group_ids?.[0] ?? '';
      pending.set(group, (facts) => resolve({ facts }));
      options?.signal?.addEventListener('abort', () => reject(new FakeAbortError('aborted')), { once: true });
    });
  return pending;
}

describe('DefaultRecallService', () => {
  it('searches every scope concurrently and merges in scope order', async () => {
    const api = new FakeGraphitiApi();
    const clock = new FakeClock();
    const services = createPolicyServices({ api, clock, workspace: { accountId: 'alice' } });
    const pending = controllableSearch(api);
    const session = await services.groups.resolve('session', { sessionId: 's1' });
    const workspace = await services.groups.resolve('workspace');
    const user = await services.groups.resolve('user');

    const recall = services.recall.recall('my preference for the build', { scopes: 'all', sessionId: 's1', maxFacts: 5 });
    // All three searches are in flight before any answers: concurrency, not a sequence.
    await until(() => pending.size === 3);
    pending.get(user ?? '')?.([fact({ uuid: 'u', fact: 'Prefers tabs' })]);
    pending.get(workspace ?? '')?.([fact({ uuid: 'w', fact: 'Builds with turbo' })]);
    pending.get(session ?? '')?.([fact({ uuid: 's', fact: 'Asked about builds' })]);
    const result = await recall;

    expect(result.facts.map((item) => [item.uuid, item.scope, item.rank])).toEqual([
      ['s', 'session', 0],
      ['w', 'workspace', 1],
      ['u', 'user', 2],
    ]);
    expect(result).toMatchObject({ timedOut: false, scopes: ['session', 'workspace', 'user'], errors: [] });
    expect(api.calls.map((call) => call.args[0])).toEqual(
      expect.arrayContaining([
        { group_ids: [session], query: 'my preference for the build', max_facts: 5 },
        { group_ids: [workspace], query: 'my preference for the build', max_facts: 5 },
        { group_ids: [user], query: 'my preference for the build', max_facts: 5 },
      ]),
    );
    expect(services.telemetry.ofType('recall')).toEqual([{ type: 'recall', outcome: 'hit', facts: 3, latencyMs: 0 }]);
  });

  it('returns what arrived by the deadline, flags timedOut and aborts the rest', async () => {
    const api = new FakeGraphitiApi();
    const clock = new FakeClock();
    const services = createPolicyServices({ api, clock });
    const pending = controllableSearch(api);
    const session = await services.groups.resolve('session', { sessionId: 's1' });

    const recall = services.recall.recall('which branch', { scopes: 'both', sessionId: 's1', timeoutMs: 300 });
    await until(() => pending.size === 2 && clock.pendingSleeps() === 1);
    pending.get(session ?? '')?.([fact({ uuid: 's', fact: 'Branch is main' })]);
    await flushMicrotasks();
    await clock.advance(300);
    const result = await recall;

    expect(result.timedOut).toBe(true);
    expect(result.facts.map((item) => item.uuid)).toEqual(['s']);
    expect(result.errors).toEqual([]);
    expect(result.elapsedMs).toBe(300);
    const signals = api.calls.map((call) => (call.args[1] as { signal: AbortSignal }).signal);
    expect(signals.every((signal) => signal.aborted)).toBe(true);
    expect(services.telemetry.ofType('recall')).toEqual([{ type: 'recall', outcome: 'timeout', facts: 1, latencyMs: 300 }]);
    expect(clock.pendingSleeps()).toBe(0);
  });

  it('searches for a bounded slice of a 3 MB prompt (its start and end), never the whole prompt', async () => {
    const api = new FakeGraphitiApi();
    const services = createPolicyServices({ api, clock: new FakeClock() });
    api.searchHandler = () => Promise.resolve({ facts: [] });
    const prompt = `where is the cache configured? ${'log line\n'.repeat(340_000)} so which port?`;
    expect(prompt.length).toBeGreaterThan(3_000_000);

    await services.recall.recall(prompt, { scopes: ['workspace'] });

    const sent = (api.calls[0]?.args[0] as SearchQuery).query;
    expect(sent).toBe(recallQueryOf(prompt));
    expect(sent.length).toBeLessThanOrEqual(MAX_RECALL_QUERY_CHARS);
    expect(sent.startsWith('where is the cache configured?')).toBe(true);
    expect(sent.endsWith('so which port?')).toBe(true);
  });

  it('releases its deadline timer when every search answered early', async () => {
    const api = new FakeGraphitiApi();
    const clock = new FakeClock();
    const services = createPolicyServices({ api, clock });
    const result = await services.recall.recall('anything', { sessionId: 's1' });
    expect(result).toMatchObject({ facts: [], timedOut: false, errors: [] });
    expect(clock.pendingSleeps()).toBe(0);
    expect(services.telemetry.ofType('recall')[0]?.outcome).toBe('miss');
  });

  it('captures failures per scope by class name and never rejects', async () => {
    const api = new FakeGraphitiApi();
    const services = createPolicyServices({ api });
    const workspace = await services.groups.resolve('workspace');
    class GraphitiServerError extends Error {}
    api.searchHandler = async (query) => {
      if (query.group_ids?.[0] === workspace) throw new GraphitiServerError('secret query text in message');
      return { facts: [fact({ uuid: 's', fact: 'A fact' })] };
    };
    const result = await services.recall.recall('the query', { sessionId: 's1' });
    expect(result.facts.map((item) => item.uuid)).toEqual(['s']);
    expect(result.errors).toEqual([{ scope: 'workspace', errorClass: 'GraphitiServerError' }]);

    api.searchHandler = async () => {
      throw new TypeError('boom');
    };
    const failed = await services.recall.recall('the query', { sessionId: 's1' });
    expect(failed.facts).toEqual([]);
    expect(failed.errors.map((error) => error.errorClass)).toEqual(['TypeError', 'TypeError']);
    expect(services.telemetry.ofType('recall').map((event) => event.outcome)).toEqual(['hit', 'error']);
    expect(JSON.stringify(services.telemetry.events)).not.toContain('query');
  });

  it('never rejects even when a port throws', async () => {
    const api = new FakeGraphitiApi();
    const services = createPolicyServices({ api });
    services.groups.resolveMany = () => Promise.reject(new RangeError('broken'));
    const result = await services.recall.recall('anything', { sessionId: 's1' });
    expect(result.facts).toEqual([]);
    expect(result.errors).toEqual([
      { scope: 'session', errorClass: 'RangeError' },
      { scope: 'workspace', errorClass: 'RangeError' },
    ]);
  });

  it('sends nothing for a blank query or a closed gate', async () => {
    const api = new FakeGraphitiApi();
    const services = createPolicyServices({ api });
    for (const query of ['', '   ', '\n\t']) {
      expect(await services.recall.recall(query, { sessionId: 's1' })).toEqual({
        outcome: 'skipped',
        skippedBecause: 'empty-query',
        facts: [],
        timedOut: false,
        elapsedMs: 0,
        scopes: [],
        errors: [],
      });
    }
    services.workspace.trusted = false;
    expect((await services.recall.recall('real question', { sessionId: 's1' })).facts).toEqual([]);
    expect(api.calls).toEqual([]);
    expect(services.telemetry.ofType('recall').every((event) => event.outcome === 'skipped')).toBe(true);
  });

  it('sends no query while recall queries are on but not agreed to', async () => {
    const api = new FakeGraphitiApi();
    const services = createPolicyServices({ api, settings: { enabled: true, recall: { enabled: true } } });
    await services.consent.grant('http://localhost:8000', ['memoryChat']);
    expect(await services.recall.recall('real question', { sessionId: 's1' })).toMatchObject({ outcome: 'skipped', skippedBecause: 'recall-not-consented', scopes: [] });
    expect(api.calls).toEqual([]);
    await services.consent.grant('http://localhost:8000', ['memoryChat', 'recallQueries']);
    await services.recall.recall('real question', { sessionId: 's1' });
    expect(api.calls.length).toBeGreaterThan(0);
  });

  it('keeps the rules of recall: gate, recall.enabled, query — and says which one skipped it', async () => {
    const api = new FakeGraphitiApi();
    api.searchHandler = async () => ({ facts: [fact({ uuid: 'f1', fact: 'We deploy with Fly.io.' })] });
    const disabled = createPolicyServices({ api, settings: { enabled: true, endpoint: 'http://localhost:8000', recall: { enabled: false } } });
    expect(await disabled.recall.recall('how do we deploy?', { sessionId: 's1' })).toMatchObject({ outcome: 'skipped', skippedBecause: 'recall-disabled', facts: [] });
    disabled.workspace.trusted = false;
    expect(await disabled.recall.recall('how do we deploy?', { sessionId: 's1' })).toMatchObject({ outcome: 'skipped', skippedBecause: 'gate-closed' });
    expect(api.calls).toEqual([]);

    const enabled = createPolicyServices({ api });
    const found = await enabled.recall.recall('how do we deploy?', { sessionId: 's1' });
    expect(found).toMatchObject({ outcome: 'hit', timedOut: false });
    expect(found.skippedBecause).toBeUndefined();
    api.searchHandler = async () => ({ facts: [] });
    expect((await enabled.recall.recall('anything else?', { sessionId: 's1' })).outcome).toBe('miss');
  });

  it('skips the session scope without a session id and uses the auto selection', async () => {
    const api = new FakeGraphitiApi();
    const services = createPolicyServices({ api, settings: { enabled: true, recall: { enabled: true, scopes: 'auto' } } });
    const result = await services.recall.recall('what did CI say about this project');
    expect(result.scopes).toEqual(['workspace']);
    expect(api.calls).toHaveLength(1);
  });

  it('stops at maxFacts and drops superseded facts unless asked to keep them', async () => {
    const api = new FakeGraphitiApi();
    const services = createPolicyServices({ api, settings: { enabled: true, recall: { enabled: true, maxFacts: 2 } } });
    api.searchHandler = async () => ({
      facts: [
        fact({ uuid: `a-${Math.random()}`, fact: 'Old fact', invalid_at: '2020-01-01T00:00:00Z' }),
        fact({ uuid: 'b', fact: 'Fact b' }),
        fact({ uuid: 'c', fact: 'Fact c' }),
        fact({ uuid: 'd', fact: 'Fact d' }),
      ],
    });
    const result = await services.recall.recall('facts', { sessionId: 's1' });
    expect(result.facts.map((item) => item.uuid)).toEqual(['b', 'c']);
    const kept = await services.recall.recall('facts', { sessionId: 's1', keepSuperseded: true, maxFacts: 3 });
    expect(kept.facts.map((item) => [item.fact, item.superseded === true])).toEqual([
      ['Old fact', true],
      ['Fact b', false],
      ['Fact c', false],
    ]);
  });

  it('ends at once with what arrived when the caller aborts', async () => {
    const api = new FakeGraphitiApi();
    const services = createPolicyServices({ api });
    api.searchHandler = (_query, options) => delayed(60_000, { facts: [] }, options?.signal);
    const controller = new AbortController();
    const recall = services.recall.recall('question', { sessionId: 's1', signal: controller.signal });
    await until(() => api.calls.length === 2);
    controller.abort();
    const result = await recall;
    expect(result).toMatchObject({ facts: [], timedOut: false, errors: [] });
  });
});

describe('errorClassOf', () => {
  it('names the class, never the message', () => {
    expect(errorClassOf(new TypeError('x'))).toBe('TypeError');
    class CustomFailure extends Error {}
    expect(errorClassOf(new CustomFailure('x'))).toBe('CustomFailure');
    expect(errorClassOf('a string')).toBe('UnknownError');
  });
});
