// The team scope end to end in memory-core, against the emulator on both faces: two people (two
// user keys) in one repository on one server. Captured chat stays in each person's own groups;
// only promoted memories reach the shared team group, with their author; a team forget removes
// only what this person wrote there.
import { createGraphitiClient, type GraphitiApi } from '@graphiti-memory/graphiti-client';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { Container } from 'inversify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SystemClock } from '../clock/system-clock.js';
import { ForgetService } from '../forget/index.js';
import { IngestionOptions } from '../ingestion/index.js';
import { Ingestion } from '../ingestion/ingestion.js';
import { createInMemoryStorageModule, createMemoryModule } from '../memory-module.js';
import { MemoryPromotion } from '../promotion/index.js';
import { RecallService } from '../recall/index.js';
import { bindFakeHostPorts } from '../../test-support/fake-host-ports.js';
import { InMemoryKeyValueStore } from '../../test-support/fakes.js';
import { GroupIdResolver } from './group-id-resolver.js';
import { USER_KEY_STORAGE_KEY } from './group-id-resolver.js';

let emulator: RunningEmulator;
let client: GraphitiApi;

interface Person {
  readonly container: Container;
  readonly ingestion: Ingestion;
  readonly groups: GroupIdResolver;
}

async function person(userKey: string, settings: Record<string, unknown>, folder: string, gitRemote: string): Promise<Person> {
  const container = new Container();
  const globalStore = new InMemoryKeyValueStore();
  await globalStore.set(USER_KEY_STORAGE_KEY, userKey);
  bindFakeHostPorts(container, {
    // Per-message capture: the test follows each turn into its group (digests have their own tests).
    settings: { enabled: true, endpoint: emulator.url, recall: { enabled: true, scopes: 'all' }, capture: { granularity: 'turn' }, ...settings },
    consentFor: emulator.url,
    connection: { current: () => client },
    clock: new SystemClock(),
    workspace: { folderUris: [folder], gitRemote },
    globalStore,
  });
  container.bind(IngestionOptions).toConstantValue({ pollIntervalMs: 20, maxPollIntervalMs: 100 });
  await container.load(createMemoryModule(), createInMemoryStorageModule());
  const ingestion = container.get<Ingestion>(Ingestion);
  ingestion.start();
  return { container, ingestion, groups: container.get<GroupIdResolver>(GroupIdResolver) };
}

function chat(id: string, text: string) {
  return {
    id,
    sessionId: `session-${id}`,
    user: { text, timestamp: '2026-11-23T10:00:00Z' },
    assistant: { text: 'Noted.', timestamp: '2026-11-23T10:00:02Z' },
  };
}

const team = { consent: true };

describe.each(['rest', 'mcp'] as const)('the team scope (%s face)', (face) => {
  beforeEach(async () => {
    emulator = await startEmulator({ processingDelayMs: 1, face });
    client = createGraphitiClient({ baseUrl: emulator.url, kind: 'auto' });
  });
  afterEach(async () => {
    await client.close();
    await emulator.close();
  });

  it('keeps captured chat private and shares promoted team memories with their author', async () => {
    const alice = await person('alice-key-0001', { team: { ...team, displayName: 'Alice' }, autoPromote: { enabled: true, review: false } }, 'file:///home/alice/app', 'git@github.com:acme/app.git');
    const bob = await person('bob-key-000002', { team }, 'file:///home/bob/code/app', 'https://github.com/Acme/App');
    const teamGroup = await alice.groups.resolve('team');
    expect(teamGroup).toBeDefined();
    expect(await bob.groups.resolve('team')).toBe(teamGroup);
    expect(await bob.groups.resolve('workspace')).not.toBe(await alice.groups.resolve('workspace'));

    alice.ingestion.enqueue(chat('t1', 'I am interviewing elsewhere.\ndecision (team): The billing API deploys with Fly.io.'));
    alice.ingestion.enqueue(chat('t2', 'decision (team): Releases ship on Tuesdays.'));
    // A tool (or a bug) asking for raw chat in the team group is refused by core itself.
    alice.ingestion.enqueueEntries([{ groupId: teamGroup ?? '', message: { content: 'I am interviewing elsewhere.', role_type: 'user', role: null, name: 'graphiti-memory.turn.x.user' } }]);
    expect((await alice.ingestion.waitForConfirmation({ timeoutMs: 15_000 })).pending).toBe(0);

    const inTeam = emulator.state.episodes().filter((episode) => episode.group_id === teamGroup);
    expect(inTeam).toHaveLength(2);
    expect(inTeam.every((episode) => episode.content.includes('scope="team"') && episode.content.includes('author="Alice"'))).toBe(true);
    expect(inTeam.some((episode) => episode.content.includes('interviewing'))).toBe(false);

    const bobRecall = await bob.container.get<RecallService>(RecallService).recall('How does the billing API deploy? Am I interviewing elsewhere?', { sessionId: 'b1' });
    const bobText = bobRecall.facts.map((fact) => fact.fact).join('\n');
    expect(bobText).toContain('Fly.io');
    expect(bobText).not.toContain('interviewing');
    const teamFact = bobRecall.facts.find((fact) => fact.fact.includes('Fly.io'));
    expect(teamFact).toMatchObject({ scope: 'team', author: 'Alice' });
    // The team group's authors are looked up once: asked again, Bob's recall lists no episodes.
    emulator.clearRequests();
    const again = await bob.container.get<RecallService>(RecallService).recall('How does the billing API deploy?', { sessionId: 'b2' });
    expect(again.facts.find((fact) => fact.fact.includes('Fly.io'))).toMatchObject({ scope: 'team', author: 'Alice' });
    expect(emulator.requests.map((request) => request.route)).not.toContain(face === 'mcp' ? 'get_episodes' : 'episodes');

    const aliceRecall = await alice.container.get<RecallService>(RecallService).recall('Am I interviewing elsewhere?', { sessionId: 'a2' });
    expect(aliceRecall.facts.map((fact) => fact.fact).join('\n')).toContain('interviewing');
    await Promise.all([alice.ingestion.dispose(), bob.ingestion.dispose()]);
  });

  it('refuses the team scope without its consent, and neither writes nor reads it', async () => {
    const carol = await person('carol-key-0003', { autoPromote: { enabled: true, review: false } }, 'file:///c', 'git@github.com:acme/app.git');
    const outcome = await carol.container.get<MemoryPromotion>(MemoryPromotion).promote({ kind: 'decision', scope: 'team', text: 'Use zod.' });
    expect(outcome).toEqual({ ok: false, reason: 'team-not-consented' });
    carol.ingestion.enqueue(chat('c1', 'decision (team): Use pnpm.'));
    await carol.ingestion.waitForConfirmation({ timeoutMs: 15_000 });
    const teamGroup = await carol.groups.resolve('team');
    expect(emulator.state.episodes().filter((episode) => episode.group_id === teamGroup)).toEqual([]);
    const recall = await carol.container.get<RecallService>(RecallService).recall('pnpm zod', { scopes: ['workspace', 'team'] });
    expect(recall.scopes).toEqual(['workspace']);
    await carol.ingestion.dispose();
  });

  it("a team forget deletes only this user's episodes; --all-authors the whole group", async () => {
    const alice = await person('alice-key-0001', { team: { ...team, displayName: 'Alice' } }, 'file:///a', 'git@github.com:acme/app.git');
    const bob = await person('bob-key-000002', { team }, 'file:///b', 'git@github.com:acme/app.git');
    await alice.container.get<MemoryPromotion>(MemoryPromotion).promote({ kind: 'decision', scope: 'team', text: 'The billing API deploys with Fly.io.' });
    // The same text from Bob is his own episode, not Alice's.
    await bob.container.get<MemoryPromotion>(MemoryPromotion).promote({ kind: 'decision', scope: 'team', text: 'The billing API deploys with Fly.io.' });
    await bob.container.get<MemoryPromotion>(MemoryPromotion).promote({ kind: 'procedure', scope: 'team', text: 'Bob reviews every migration.' });
    await alice.ingestion.waitForConfirmation({ timeoutMs: 15_000 });
    await bob.ingestion.waitForConfirmation({ timeoutMs: 15_000 });
    const teamGroup = (await alice.groups.resolve('team')) ?? '';
    expect(emulator.state.episodes().filter((episode) => episode.group_id === teamGroup)).toHaveLength(3);

    emulator.clearRequests();
    const forgotten = await bob.container.get<ForgetService>(ForgetService).forget({ scope: 'team' });
    expect(forgotten).toMatchObject({ deletedEpisodes: 2, failed: [] });
    // The team group is listed once for all of Bob's episodes; MCP's delete_episode removes their
    // facts itself, so no fact is deleted one by one there.
    const routes = emulator.requests.map((request) => request.route);
    expect(routes.filter((route) => route === (face === 'mcp' ? 'get_episodes' : 'episodes'))).toHaveLength(1);
    if (face === 'mcp') expect(routes).not.toContain('delete_entity_edge');
    else expect(routes).toContain('delete-entity-edge');
    const left = emulator.state.episodes().filter((episode) => episode.group_id === teamGroup);
    expect(left).toHaveLength(1);
    expect(left[0]?.content).toContain('author="Alice"');
    const recall = await bob.container.get<RecallService>(RecallService).recall('How does the billing API deploy? Who reviews migrations?', { scopes: ['team'] });
    expect(recall.facts.map((fact) => fact.fact).join('\n')).toContain('Fly.io');
    expect(recall.facts.map((fact) => fact.fact).join('\n')).not.toContain('migration');

    await alice.container.get<ForgetService>(ForgetService).forget({ scope: 'team', allAuthors: true });
    expect(emulator.state.episodes().filter((episode) => episode.group_id === teamGroup)).toEqual([]);
    await Promise.all([alice.ingestion.dispose(), bob.ingestion.dispose()]);
  });
});
