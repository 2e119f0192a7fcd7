// Memory opened to recall only (a hook prompt) against the emulator over HTTP: the container binds
// memory-core's recall side and the shared stores, nothing of the send side, and a recall through it
// gives the same facts, group ids and audit lines as memory opened in full without `send`.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GraphitiClient } from '@graphiti-memory/graphiti-client';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import {
  AuditLog,
  EpisodeSources,
  ForgetLedger,
  ForgetService,
  GroupIdResolver,
  Ingestion,
  IngestionStorage,
  MemoryGate,
  normaliseEndpoint,
  parseMemorySettings,
  PendingMemoryStore,
  PromotionService,
  RecallService,
  ReviewQueue,
  SecretGuard,
  TurnPlanner,
  type AuditEntry,
} from '@graphiti-memory/memory-core';
import { FileOutbox } from '@graphiti-memory/memory-node-storage';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readGitFacts } from '../composition/git-facts.js';
import { everyHookEvent } from '../hook/hook-events.js';
import { promptSubmitHandlers } from '../hook/hook-handlers.js';
import { openHookMemory, openRecallHookMemory } from '../hook/hook-memory.js';
import { openMemory, openRecallMemory, type OpenedMemory, type RecallMemoryOptions } from './open-memory.js';

let emulator: RunningEmulator;
let client: GraphitiClient;
let root: string;

beforeAll(async () => {
  emulator = await startEmulator({ quiet: true, processingDelayMs: 1 });
  client = new GraphitiClient({ baseUrl: emulator.url, maxRetries: 0 });
  return async () => {
    await client.close();
    await emulator.close();
  };
});
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'open-memory-'));
  await fs.mkdir(path.join(root, 'workspace'));
  return () => fs.rm(root, { recursive: true, force: true });
});

async function options(): Promise<RecallMemoryOptions> {
  const endpoint = normaliseEndpoint(emulator.url) ?? emulator.url;
  const workspace = path.join(root, 'workspace');
  return {
    tool: 'agent-hooks',
    settings: parseMemorySettings({ enabled: true, endpoint: emulator.url, recall: { enabled: true } }).settings,
    client,
    endpoint,
    stateDirectory: path.join(root, 'state'),
    workspaceFolder: workspace,
    git: await readGitFacts(workspace),
    userKey: 'open-memory-test-user-key',
    consent: { get: () => ({ endpoint, grantedAt: '2026-11-20T10:00:00Z' }), grant: async () => {}, revoke: async () => {} },
    logger: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  };
}

/** A recall for the prompt, the group ids it resolves, and the audit lines it appended (times left out). */
async function recallThrough(memory: OpenedMemory, sessionId: string) {
  const before = (await memory.audit.read()).length;
  const result = await memory.recall.recall((await memory.guard.redact('Which package manager do we use?')).text, { sessionId, timeoutMs: 5_000 });
  const groups = await memory.groups.resolveMany(['session', 'workspace', 'user', 'team'], { sessionId });
  await memory.audit.flush();
  // The scopes' searches run together: their lines are compared in a stable order.
  const audit = (await memory.audit.read())
    .slice(before)
    .map(({ at: _at, ...entry }: AuditEntry) => entry)
    .sort((left, right) => JSON.stringify(left).localeCompare(JSON.stringify(right)));
  return { outcome: result.outcome, facts: result.facts.map((fact) => fact.fact), scopes: result.scopes, groups, audit };
}

describe('openRecallMemory', () => {
  it('binds the recall side and the shared stores, and nothing that sends', async () => {
    const memory = await openRecallMemory(await options());
    try {
      for (const token of [SecretGuard, MemoryGate, GroupIdResolver, RecallService, AuditLog, PendingMemoryStore, EpisodeSources, ForgetLedger]) {
        expect(memory.container.isBound(token), String(token)).toBe(true);
      }
      for (const token of [Ingestion, IngestionStorage, FileOutbox, PromotionService, TurnPlanner, ForgetService, ReviewQueue]) {
        expect(memory.container.isBound(token), String(token)).toBe(false);
      }
      expect([memory.ingestion, memory.outbox, memory.promotion, memory.forget, memory.review, memory.registry]).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
    } finally {
      await memory.close();
    }
    // Nothing of the outbox was opened on disk.
    await expect(fs.stat(memory.layout.outboxDirectory)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('recalls the same facts, groups and audit lines as memory opened in full', async () => {
    const full = await openMemory({ ...(await options()), needs: {} });
    const workspaceGroup = await full.groups.resolve('workspace');
    await client.addMessages({
      group_id: workspaceGroup ?? '',
      messages: [{ name: 'open-memory.turn.1.user', role: 'user', role_type: 'user', content: 'We always use pnpm as the package manager.', timestamp: '2026-11-20T10:00:00Z' }],
    });
    await emulator.idle();
    const fromFull = await recallThrough(full, 'session-a');
    await full.close();

    const recallOnly = await openRecallMemory(await options());
    const fromRecallOnly = await recallThrough(recallOnly, 'session-a');
    await recallOnly.close();

    expect(fromFull.facts.join(' ')).toContain('pnpm');
    expect(fromFull.audit.map((entry) => entry.kind)).toEqual(['search', 'search']);
    expect(fromRecallOnly).toEqual(fromFull);
  });
});

describe('the hook cores open memory for UserPromptSubmit to recall only', () => {
  it('in the lean prompt core and in the full core alike; other events in full', () => {
    expect(promptSubmitHandlers.openMemory('UserPromptSubmit')).toBe(openRecallHookMemory);
    expect(everyHookEvent.openMemory('UserPromptSubmit')).toBe(openRecallHookMemory);
    for (const event of ['SessionStart', 'Stop', 'SessionEnd'] as const) expect(everyHookEvent.openMemory(event)).toBe(openHookMemory);
  });
});
