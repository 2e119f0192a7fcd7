// The hook handlers keep a session's facts to that session: UserPromptSubmit caches what recall
// returned with each fact's group, and the next session's cached recall and SessionStart brief
// (Graphiti unreachable) show the workspace's facts, never the other session's. Real handlers and
// a real tier on disk; memory-core's recall and group resolver stand in for the network.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  Clock,
  createRecallModule,
  GlobalStore,
  GraphitiConnection,
  GroupIdResolver,
  LocalTier,
  LocalTierStore,
  Logger,
  SettingsSource,
  SystemClock,
  TelemetrySink,
  WorkspaceContext,
  type MemoryScope,
  type RecalledFact,
  type RecallResult,
} from '@graphiti-memory/memory-core';
import { FileLocalTierStore } from '@graphiti-memory/memory-node-storage';
import { Container } from 'inversify';
import { StaticSettingsSource } from '../composition/static-settings-source.js';
import { NullLogger } from './null-logger.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HookContext } from './hook-context.js';
import type { HookMemory } from './hook-memory.js';
import { handlePromptSubmit } from './prompt-submit.js';
import { handleSessionStart } from './session-start.js';

const ENDPOINT = 'http://127.0.0.1:8000';
const NOW = () => new Date('2026-11-23T12:00:00Z');

function recalled(uuid: string, fact: string, scope: MemoryScope): RecalledFact {
  return { uuid, name: 'RELATES_TO', fact, valid_at: null, invalid_at: null, expired_at: null, created_at: '2026-11-20T10:00:00Z', scope, rank: 0 };
}

/** Recall answers `facts` (or misses the deadline); groups resolve as memory-core's resolver does. */
function memory(answer: readonly RecalledFact[] | 'timeout'): HookMemory {
  const result: RecallResult =
    answer === 'timeout'
      ? { outcome: 'timeout', facts: [], timedOut: true, elapsedMs: 750, scopes: ['session', 'workspace'], errors: [] }
      : { outcome: 'hit', facts: answer, timedOut: false, elapsedMs: 5, scopes: ['session', 'workspace'], errors: [] };
  const groupOf = (scope: MemoryScope, sessionId: string | undefined): string | undefined =>
    scope === 'session' ? (sessionId === undefined ? undefined : `gm_session_${sessionId}`) : `gm_${scope}_1`;
  const groups = {
    resolve: async (scope: MemoryScope, context: { sessionId?: string } = {}) => groupOf(scope, context.sessionId),
    resolveMany: async (scopes: readonly MemoryScope[], context: { sessionId?: string } = {}) =>
      scopes.flatMap((scope) => {
        const groupId = groupOf(scope, context.sessionId);
        return groupId === undefined ? [] : [{ scope, groupId }];
      }),
  };
  // Graphiti is unreachable for SessionStart's refresh.
  const api = {
    getEpisodes: async () => Promise.reject(new Error('connect ECONNREFUSED')),
    search: async () => Promise.reject(new Error('connect ECONNREFUSED')),
  };
  // memory-core's own LocalTier over the tier on disk, as openMemory binds it.
  const container = new Container();
  container.loadSync(createRecallModule());
  container.bind(SettingsSource).toConstantValue(new StaticSettingsSource({ enabled: true, endpoint: ENDPOINT, recall: { enabled: true } }));
  container.bind(WorkspaceContext).toConstantValue({ isTrusted: () => true, folderUris: () => [] });
  container.bind(GlobalStore).toConstantValue({ get: () => undefined, update: async () => {}, keys: () => [] });
  const system = new SystemClock();
  container.bind(Clock).toConstantValue({ now: () => NOW().getTime(), sleep: (ms: number, signal?: AbortSignal) => system.sleep(ms, signal) });
  container.bind(Logger).toConstantValue(new NullLogger());
  container.bind(TelemetrySink).toConstantValue({ emit: () => {} });
  container.bind(GraphitiConnection).toConstantValue({ current: () => api });
  container.bind(LocalTierStore).toConstantValue(new FileLocalTierStore(() => Promise.resolve(stateDirectory)));
  container.rebindSync(GroupIdResolver).toConstantValue(groups as unknown as GroupIdResolver);
  const tier = container.get<LocalTier>(LocalTier);
  return {
    guard: { redact: async (text: string) => ({ text, findings: [] }) },
    // As memory-core's recall does: what it found goes into the tier in the background.
    recall: {
      recall: async (_query: string, options: { sessionId?: string } = {}) => {
        void tier.recordRecalled(result.facts, NOW(), options.sessionId);
        return result;
      },
    },
    groups,
    api,
    tier,
  } as unknown as HookMemory;
}

let stateDirectory: string;

function context(event: 'UserPromptSubmit' | 'SessionStart', sessionId: string, prompt?: string): HookContext {
  return {
    hook: { event, sessionId, transcriptPath: undefined, cwd: undefined, prompt },
    config: { recallTimeoutMs: 750, maxFacts: 10, scopes: undefined, briefBudget: 1_500, settings: { recall: { enabled: true }, team: { consent: false } } },
    endpoint: ENDPOINT,
    stateDirectory,
  } as unknown as HookContext;
}

beforeEach(async () => {
  stateDirectory = await fs.mkdtemp(path.join(os.tmpdir(), 'tier-handlers-'));
});
afterEach(async () => {
  await fs.rm(stateDirectory, { recursive: true, force: true });
});

describe('session facts in the hooks', () => {
  it("never shows session A's facts in session B's cached recall or brief", async () => {
    const facts = [recalled('s-a', 'The flaky login test is debugged in session A', 'session'), recalled('w-1', 'The login test runs on Playwright', 'workspace')];
    const first = await handlePromptSubmit(context('UserPromptSubmit', 'a', 'the flaky login test'), memory(facts), Date.now(), NOW);
    expect(first.context).toContain('flaky login test');

    // Said once: session A was given both facts, so its cached recall repeats neither.
    const cachedInA = await handlePromptSubmit(context('UserPromptSubmit', 'a', 'the flaky login test'), memory('timeout'), Date.now(), NOW);
    expect(cachedInA).toMatchObject({ outcome: 'missed' });

    const cachedInB = await handlePromptSubmit(context('UserPromptSubmit', 'b', 'the flaky login test'), memory('timeout'), Date.now(), NOW);
    expect(cachedInB.context).toContain('runs on Playwright');
    expect(cachedInB.context).not.toContain('flaky login test');

    const briefInB = await handleSessionStart(context('SessionStart', 'b'), memory('timeout'), Date.now(), NOW);
    expect(briefInB).toMatchObject({ detail: 'graphiti-unavailable', drain: true });
    expect(briefInB.context).toContain('runs on Playwright');
    expect(briefInB.context).not.toContain('flaky login test');
    expect((await handleSessionStart(context('SessionStart', 'a'), memory('timeout'), Date.now(), NOW)).context).toContain('flaky login test');
  });
});

describe('where we left off in the hooks', () => {
  it("ends the next session's brief with the workspace's last finished session, cited, and says it once", async () => {
    const open = memory('timeout');
    // What delivery confirmation records when a session digest reached the workspace group, and a decision promoted meanwhile.
    await open.tier.recordPromotion({ kind: 'decision', scope: 'workspace', text: 'Keep the login redirect on the server.' }, {
      groupId: 'gm_workspace_1',
      message: { content: '…', role_type: 'system', role: null, name: 'graphiti-memory.promotion.1', timestamp: '2026-11-23T10:30:00Z' },
    });
    await open.tier.recordDigests([{ tool: 'Claude Code', session: 'yesterday', title: 'fix the login redirect', episode: 'digest-1', groupId: 'gm_workspace_1', at: '2026-11-23T11:00:00Z' }]);

    const brief = await handleSessionStart(context('SessionStart', 'today'), memory('timeout'), Date.now(), NOW);
    const lines = (brief.context ?? '').split('\n').filter((line) => line.startsWith('- '));
    expect(lines.at(-1)).toBe(
      '- Where we left off: the last session here ended 2026-11-23 in Claude Code, asked "fix the login redirect"; decided: Keep the login redirect on the server. (Claude Code, 2026-11-23)',
    );
    // A resumed conversation was told already.
    const resumed = await handleSessionStart({ ...context('SessionStart', 'today'), hook: { ...context('SessionStart', 'today').hook, source: 'resume' } } as HookContext, memory('timeout'), Date.now(), NOW);
    expect(resumed.context ?? '').not.toContain('Where we left off');
  });
});

describe('say it once in the hooks', () => {
  const decision = recalled('w-1', 'We deploy the billing API with Fly.io', 'workspace');
  const other = { ...recalled('w-2', 'Tests run with vitest', 'workspace'), rank: 1 };

  it("leaves out of a session's recall what its earlier recall gave, says a changed fact again, and a new session gets all", async () => {
    const first = await handlePromptSubmit(context('UserPromptSubmit', 'a', 'how do we deploy'), memory([decision]), Date.now(), NOW);
    expect(first.context).toContain('Fly.io');
    const second = await handlePromptSubmit(context('UserPromptSubmit', 'a', 'deploy and tests'), memory([decision, other]), Date.now(), NOW);
    expect(second.context).toContain('vitest');
    expect(second.context).not.toContain('Fly.io');
    expect(await handlePromptSubmit(context('UserPromptSubmit', 'a', 'deploy and tests'), memory([decision, other]), Date.now(), NOW)).toMatchObject({ outcome: 'said-before' });
    const changed = { ...decision, fact: 'We deploy the billing API with Render' };
    expect((await handlePromptSubmit(context('UserPromptSubmit', 'a', 'how do we deploy'), memory([changed]), Date.now(), NOW)).context).toContain('Render');
    expect((await handlePromptSubmit(context('UserPromptSubmit', 'b', 'how do we deploy'), memory([decision]), Date.now(), NOW)).context).toContain('Fly.io');
  });

  it('a SessionStart of a new, cleared or compacted conversation starts over; a resumed one keeps what was given', async () => {
    await handlePromptSubmit(context('UserPromptSubmit', 'a', 'how do we deploy'), memory([decision]), Date.now(), NOW);
    const resumed = { ...context('SessionStart', 'a'), hook: { ...context('SessionStart', 'a').hook, source: 'resume' } } as HookContext;
    await handleSessionStart(resumed, memory('timeout'), Date.now(), NOW);
    expect(await handlePromptSubmit(context('UserPromptSubmit', 'a', 'how do we deploy'), memory([decision]), Date.now(), NOW)).toMatchObject({ outcome: 'said-before' });
    const compacted = { ...context('SessionStart', 'a'), hook: { ...context('SessionStart', 'a').hook, source: 'compact' } } as HookContext;
    // Graphiti is unreachable and the tier holds the fact: the brief gives it again, so the recall still does not.
    expect((await handleSessionStart(compacted, memory('timeout'), Date.now(), NOW)).context).toContain('Fly.io');
    expect(await handlePromptSubmit(context('UserPromptSubmit', 'a', 'how do we deploy'), memory([decision]), Date.now(), NOW)).toMatchObject({ outcome: 'said-before' });
    // A cleared conversation whose brief is empty (another workspace's tier) hears the fact again from recall.
    await fs.rm(path.join(stateDirectory, 'tier'), { recursive: true, force: true });
    const cleared = { ...context('SessionStart', 'a'), hook: { ...context('SessionStart', 'a').hook, source: 'clear' } } as HookContext;
    expect((await handleSessionStart(cleared, memory('timeout'), Date.now(), NOW)).context).toBeUndefined();
    expect((await handlePromptSubmit(context('UserPromptSubmit', 'a', 'how do we deploy'), memory([decision]), Date.now(), NOW)).context).toContain('Fly.io');
  });
});

describe("say it once in Copilot's agent loop (hook context lasts one turn)", () => {
  const decision = recalled('w-1', 'We deploy the billing API with Fly.io', 'workspace');
  const copilot = (event: 'UserPromptSubmit' | 'SessionStart', prompt?: string): HookContext => {
    const base = context(event, 'copilot-1', prompt);
    return { ...base, hook: { ...base.hook, transcriptPath: path.join(stateDirectory, 'Code', 'User', 'workspaceStorage', 'f00d', 'GitHub.copilot-chat', 'transcripts', 'copilot-1.jsonl') } } as HookContext;
  };

  it("leaves out of a turn's recall what the same turn's SessionStart brief gave, and gives it again in the next turn", async () => {
    // The tier knows the fact (an earlier recall of another session), so the brief lists it.
    await handlePromptSubmit(context('UserPromptSubmit', 'other', 'how do we deploy'), memory([decision]), Date.now(), NOW);
    expect((await handleSessionStart(copilot('SessionStart'), memory('timeout'), Date.now(), NOW)).context).toContain('Fly.io');
    expect(await handlePromptSubmit(copilot('UserPromptSubmit', 'how do we deploy'), memory([decision]), Date.now(), NOW)).toMatchObject({ outcome: 'said-before' });
    // The next turn's request no longer holds the first turn's hook context: recall gives it.
    expect((await handlePromptSubmit(copilot('UserPromptSubmit', 'how do we deploy'), memory([decision]), Date.now(), NOW)).context).toContain('Fly.io');
    expect((await handlePromptSubmit(copilot('UserPromptSubmit', 'how do we deploy'), memory([decision]), Date.now(), NOW)).context).toContain('Fly.io');
  });
});
