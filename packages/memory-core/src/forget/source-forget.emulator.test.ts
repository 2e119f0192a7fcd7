// Issue 29 item 2: forgetting a source forgets every copy. A captured session goes to its session group
// and its workspace group under one digest name; "Forget This Source" / `forget --episode` on either
// copy deletes both (and on REST the facts only they support), recall then answers nothing from
// either, and the result counts what was really deleted. On each face of Graphiti.
import { createGraphitiClient, type GraphitiApi } from '@graphiti-memory/graphiti-client';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import type { Container } from 'inversify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { composeWithEmulator } from '../../test-support/emulator-container.js';
import { Ingestion } from '../ingestion/ingestion.js';
import type { ChatTurn } from '../ports.js';
import { RecallService } from '../recall/index.js';
import { ForgetService } from './forget-service.js';

let emulator: RunningEmulator;
let client: GraphitiApi;

function compose(): Promise<Container> {
  return composeWithEmulator({ emulator, client, settings: { scopes: 'both', recall: { enabled: true, scopes: 'both', timeoutMs: 5000 } } });
}

const session = (id: string, text: string): ChatTurn => ({
  id: `${id}-turn`,
  sessionId: id,
  participant: 'claude-code',
  user: { text, timestamp: '2026-11-20T10:00:00Z' },
  assistant: { text: 'Understood.', timestamp: '2026-11-20T10:00:02Z' },
});

describe.each(['rest', 'mcp'] as const)('forgetting a source (%s face)', (face) => {
  beforeEach(async () => {
    emulator = await startEmulator({ processingDelayMs: 2, face });
    client = createGraphitiClient({ baseUrl: emulator.url, kind: face });
  });
  afterEach(async () => {
    await client.close();
    await emulator.close();
  });

  it('deletes the copy in the session group and the one in the workspace group; recall answers nothing from either', async () => {
    const container = await compose();
    const ingestion = container.get<Ingestion>(Ingestion);
    ingestion.start();
    ingestion.enqueue(session('chat-1', 'We deploy the billing API with Fly.io.'));
    ingestion.enqueue(session('chat-2', 'The nightly backup runs at 02:00 UTC.'));
    ingestion.endSessions(['chat-1', 'chat-2']);
    expect((await ingestion.waitForConfirmation({ timeoutMs: 15_000 })).pending).toBe(0);
    const copies = emulator.state.episodes().filter((episode) => episode.content.includes('Fly.io'));
    expect(new Set(copies.map((episode) => episode.group_id)).size).toBe(2);
    const recall = container.get<RecallService>(RecallService);
    expect((await recall.recall('How do we deploy the billing API?', { sessionId: 'chat-3' })).facts.map((fact) => fact.fact).join('\n')).toContain('Fly.io');

    // The session copy, as "Forget This Source" in the view names it.
    const named = copies.find((episode) => episode.group_id.startsWith('gm_session_'))!;
    const result = await container.get(ForgetService).forgetSource(named.uuid);

    expect(result.episodes.map((copy) => copy.episode).sort()).toEqual(copies.map((episode) => episode.uuid).sort());
    expect(emulator.state.episodes().filter((episode) => episode.content.includes('Fly.io'))).toEqual([]);
    expect(emulator.state.facts().filter((fact) => fact.fact.includes('Fly.io'))).toEqual([]);
    if (face === 'rest') {
      // Counted truly: the facts deleted are the facts that were there, each once.
      expect(result.deletedFacts?.length).toBeGreaterThan(0);
      expect(new Set(result.deletedFacts).size).toBe(result.deletedFacts?.length);
    } else {
      // MCP removes them itself and does not say how many: no number is made up.
      expect(result.deletedFacts).toBeUndefined();
    }
    const after = await recall.recall('How do we deploy the billing API?', { sessionId: 'chat-4' });
    expect(after.facts.map((fact) => fact.fact).join('\n')).not.toContain('Fly.io');
    // Another source stays.
    expect(emulator.state.episodes().filter((episode) => episode.content.includes('02:00 UTC'))).toHaveLength(2);
  });

  it('deletes a message stored twice in one group (a resend stored beside the send it replaced)', async () => {
    const container = await compose();
    const message = { content: 'The staging database password rotates on Mondays.', role_type: 'user' as const, role: null, name: 'graphiti-harness.turn.t-7.user', timestamp: '2026-11-20T10:00:00Z' };
    for (let copy = 0; copy < 2; copy++) await client.addMessages({ group_id: 'gm_workspace_twice', messages: [message] });
    await emulator.idle();
    const twice = emulator.state.episodes().filter((episode) => episode.name === message.name);
    expect(twice).toHaveLength(2);

    const result = await container.get(ForgetService).forgetSource(twice[0]!.uuid, { groupId: 'gm_workspace_twice' });

    expect(result.episodes.map((copy) => copy.episode).sort()).toEqual(twice.map((episode) => episode.uuid).sort());
    expect(emulator.state.episodes().filter((episode) => episode.name === message.name)).toEqual([]);
    expect(emulator.state.facts().filter((fact) => fact.fact.includes('rotates on Mondays'))).toEqual([]);
  });
});
