// The forget ledger on disk: what one process records every other one reads (a stat-cached read
// must still see another process's change), group forgets merge, turn keys stay bounded, the file
// is private and holds hashes only; and a record held by a live process's journal, which a forget
// cannot dequeue, is dropped by that process's next drain pass instead of sent.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GraphitiClient } from '@graphiti-memory/graphiti-client';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { forgottenTurnKey, IngestionService, openedIngestionStorage, OwedDeletions, type OutboxEntry } from '@graphiti-memory/memory-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileOutbox } from '../outbox/file-outbox.js';
import { FileForgetLedger } from './file-forget-ledger.js';

type IngestionArguments = ConstructorParameters<typeof IngestionService>;

let folder: string;

beforeEach(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'forget-ledger-'));
});
afterEach(async () => {
  await fs.rm(folder, { recursive: true, force: true });
});

describe('FileForgetLedger', () => {
  it('shares what one instance records with another that read before, and merges later forgets', async () => {
    const filePath = path.join(folder, 'endpoint', 'forgotten.json');
    const reader = new FileForgetLedger({ filePath });
    const writer = new FileForgetLedger({ filePath });
    expect((await reader.read()).groups).toEqual([]);
    await writer.forgetGroups(['ws_a', 'session_1'], 1_000);
    expect((await reader.read()).groups).toEqual([
      { groupId: 'ws_a', forgottenAt: 1_000, deletionOwed: true },
      { groupId: 'session_1', forgottenAt: 1_000, deletionOwed: true },
    ]);
    await writer.deleted(['ws_a']);
    await writer.forgetGroups(['session_1'], 2_000);
    expect((await reader.read()).groups).toEqual([
      { groupId: 'ws_a', forgottenAt: 1_000, deletionOwed: false },
      { groupId: 'session_1', forgottenAt: 2_000, deletionOwed: true },
    ]);
    expect((await fs.stat(filePath)).mode & 0o777).toBe(0o600);
  });

  it('keeps forgotten turns as hashes only, the newest `maxTurns`', async () => {
    const filePath = path.join(folder, 'forgotten.json');
    const ledger = new FileForgetLedger({ filePath, maxTurns: 2 });
    const keys = await Promise.all(['turn-uuid-1', 'turn-uuid-2', 'turn-uuid-3'].map((id) => forgottenTurnKey(id)));
    await ledger.forgetTurns(keys);
    const turns = (await new FileForgetLedger({ filePath }).read()).turns;
    expect([...turns]).toEqual(keys.slice(1));
    expect(await fs.readFile(filePath, 'utf8')).not.toContain('turn-uuid');
  });
});

describe('a record in a live process journal', { timeout: 30_000 }, () => {
  let emulator: RunningEmulator;
  let client: GraphitiClient;
  beforeEach(async () => {
    emulator = await startEmulator({ processingDelayMs: 1 });
    client = new GraphitiClient({ baseUrl: emulator.url, maxRetries: 0 });
  });
  afterEach(async () => {
    await client.close();
    await emulator.close();
  });

  const entry = (groupId: string, name: string): OutboxEntry => ({
    groupId,
    message: { content: `Message ${name}.`, role_type: 'user', role: null, name, timestamp: '2026-11-23T10:00:00Z' },
  });

  it('is not delivered after a forget recorded by another process: that process drops it before sending; other groups still go', async () => {
    const outboxes = path.join(folder, 'outbox');
    const ledgerFile = path.join(folder, 'forgotten.json');
    // The live process (an extension window, a hook server): its journal stays locked, so a forget cannot adopt it.
    const live = await FileOutbox.open({ directory: outboxes });
    live.append([entry('ws_forgotten', 'graphiti-memory.turn.t1.user'), entry('ws_kept', 'graphiti-memory.turn.t2.user')]);
    await live.flush();

    // The forgetting process: records the forget, then dequeues what it can reach (nothing of the live journal).
    const forgetting = await FileOutbox.open({ directory: outboxes });
    await new FileForgetLedger({ filePath: ledgerFile }).forgetGroups(['ws_forgotten'], Date.now());
    expect(await forgetting.forgetGroups(['ws_forgotten'])).toBe(0);
    await forgetting.close();

    // The live process drains with its own view of the same record.
    const quiet = { debug() {}, info() {}, warn() {}, error() {} };
    const ledger = new FileForgetLedger({ filePath: ledgerFile });
    const settings = { enabled: true, endpoint: emulator.url, timeoutMs: 2_000, maxBatchSize: 10, maxQueueSize: 100, maxAttempts: 5, maxAgeHours: 72 };
    const service = new IngestionService(
      { plan: async () => [] },
      openedIngestionStorage(live, live.deliveryLedger),
      { current: () => client },
      { evaluate: () => ({ open: true, endpoint: emulator.url }) },
      { current: () => settings, problems: () => [], onDidChange: () => ({ dispose() {} }) } as unknown as IngestionArguments[4],
      { now: () => Date.now(), sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)) },
      quiet,
      { emit() {} },
      { pollIntervalMs: 20, maxPollIntervalMs: 100 },
      undefined,
      undefined,
      undefined,
      ledger,
      new OwedDeletions(quiet, ledger),
    );
    service.start();
    for (let waited = 0; live.size() > 0 && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(live.size()).toBe(0);
    await service.dispose();
    await live.close();
    const sent = emulator.requests.filter((request) => request.route === 'messages').map((request) => (request.body as { group_id: string }).group_id);
    expect(sent).toEqual(['ws_kept']);
    expect(emulator.requests.filter((request) => request.route === 'delete-group').map((request) => request.path)).toEqual(['/group/ws_forgotten']);
    expect((await ledger.read()).groups).toMatchObject([{ groupId: 'ws_forgotten', deletionOwed: false }]);
  });
});
