// Issue 33: a forget lets go of what import-instructions recorded for the memories it deletes, in
// whichever tool it runs (every tool forgets through ForgetService): a forget of the workspace
// forgets the workspace group's imported files, and forgetting one source forgets the imported
// line whose memory it was — so a later import sends those lines again instead of skipping them.
import { createGraphitiClient, type GraphitiApi } from '@graphiti-memory/graphiti-client';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import type { Container } from 'inversify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { composeWithEmulator } from '../../test-support/emulator-container.js';
import { Ingestion } from '../ingestion/ingestion.js';
import { InstructionImports } from '../instructions/instruction-imports.js';
import { MemoryPromotion } from '../promotion/memory-promotion.js';
import { GroupIdResolver } from '../scopes/index.js';
import { ForgetService } from './forget-service.js';

let emulator: RunningEmulator;
let client: GraphitiApi;

/** What a forget told the import record. */
class RecordingImports implements InstructionImports {
  readonly groups: string[][] = [];
  readonly episodes: string[][] = [];
  async forgetGroups(groupIds: readonly string[]): Promise<number> {
    this.groups.push([...groupIds]);
    return groupIds.length;
  }
  async forgetEpisodes(episodeNames: readonly string[]): Promise<number> {
    this.episodes.push([...episodeNames]);
    return episodeNames.length;
  }
}

function compose(imports: InstructionImports | undefined): Promise<Container> {
  return composeWithEmulator({
    emulator,
    client,
    settings: { recall: { enabled: true } },
    bind: (container) => {
      if (imports !== undefined) container.bind(InstructionImports).toConstantValue(imports);
    },
  });
}

describe('forget and the instruction import record', () => {
  beforeEach(async () => {
    emulator = await startEmulator({ processingDelayMs: 2 });
    client = createGraphitiClient({ baseUrl: emulator.url });
  });
  afterEach(async () => {
    await client.close();
    await emulator.close();
  });

  it('a forget of the workspace forgets the imports of the workspace group', async () => {
    const imports = new RecordingImports();
    const container = await compose(imports);
    const workspace = await container.get<GroupIdResolver>(GroupIdResolver).resolve('workspace');
    await container.get(ForgetService).forget({ scope: 'workspace' });
    expect(imports.groups).toHaveLength(1);
    expect(imports.groups[0]).toContain(workspace);
  });

  it('forgetting one source forgets the imported line its episode came from, by the episode name', async () => {
    const imports = new RecordingImports();
    const container = await compose(imports);
    const ingestion = container.get<Ingestion>(Ingestion);
    ingestion.start();
    const promoted = await container.get<MemoryPromotion>(MemoryPromotion).promote({ kind: 'procedure', scope: 'workspace', text: 'Run pnpm test before pushing (CLAUDE.md:3)' });
    if (!promoted.ok) throw new Error(`not promoted: ${promoted.reason}`);
    expect((await ingestion.waitForConfirmation({ timeoutMs: 15_000 })).pending).toBe(0);
    const episode = emulator.state.episodes().find((candidate) => candidate.name === promoted.episodeName);
    expect(episode).toBeDefined();

    await container.get(ForgetService).forgetSource(episode!.uuid, { groupId: promoted.groupId });

    expect(imports.episodes).toEqual([[promoted.episodeName]]);
    await ingestion.stop();
  });

  it('forgets as before without an import record bound (a tool that never imports)', async () => {
    const container = await compose(undefined);
    await expect(container.get(ForgetService).forget({ scope: 'workspace' })).resolves.toMatchObject({ failed: [] });
  });
});
