// `migrate` against a real emulator: an install of before issue 21 wrote this workspace's turns to
// the old, repository-only workspace group, which a teammate shared. migrate copies only what this
// state folder delivered there into the new private group, and with --delete-old removes the old one.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { openMemory, readGitFacts } from '@graphiti-memory/agent-hooks';
import { GraphitiClient } from '@graphiti-memory/graphiti-client';
import { legacyWorkspaceGroupId, normaliseEndpoint, parseMemorySettings, type OutboxEntry } from '@graphiti-memory/memory-core';
import { ensureUserKey } from '@graphiti-memory/memory-node-storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEST_CONFIG_DIRECTORY } from '../test-support/captured-terminal.js';
import { closeEmulatorCommands, openEmulatorCommands, runCommand, type EmulatorCommandsFixture } from '../test-support/emulator-commands.js';

let fixture: EmulatorCommandsFixture;

beforeEach(async () => {
  fixture = await openEmulatorCommands('harness-migrate-', {});
});
afterEach(() => closeEmulatorCommands(fixture));

/** What the old version did: this state folder's outbox delivered two turns to the old workspace group. */
async function seedOldInstall(oldGroup: string): Promise<void> {
  const { emulator, folder } = fixture;
  const workspace = path.join(folder, 'workspace');
  const client = new GraphitiClient({ baseUrl: emulator.url, maxRetries: 0 });
  const endpoint = normaliseEndpoint(emulator.url) ?? emulator.url;
  const memory = await openMemory({
    tool: 'graphiti-harness',
    settings: parseMemorySettings({ enabled: true, endpoint: emulator.url }).settings,
    client,
    endpoint,
    stateDirectory: path.join(folder, 'state'),
    workspaceFolder: workspace,
    git: await readGitFacts(workspace),
    userKey: await ensureUserKey({ GRAPHITI_MEMORY_CONFIG_DIR: TEST_CONFIG_DIRECTORY }),
    consent: { get: () => ({ endpoint, grantedAt: new Date().toISOString() }), grant: async () => {}, revoke: async () => {} },
    logger: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    needs: { send: true },
  });
  const turn = (name: string, role: 'user' | 'assistant', content: string): OutboxEntry => ({
    groupId: oldGroup,
    message: { name, role_type: role, role: null, content, timestamp: '2026-11-20T10:00:00Z', source_description: 'old install' },
  });
  memory.ingestion?.start();
  memory.ingestion?.enqueueEntries([turn('graphiti-memory.turn.t1.user', 'user', 'We deploy with Fly.io.'), turn('graphiti-memory.turn.t1.assistant', 'assistant', 'Noted: Fly.io.')]);
  await memory.ingestion?.waitForConfirmation({ timeoutMs: 15_000 });
  await memory.close();
  // A teammate's turn in the same, shared old group: never copied into this user's private group.
  await client.addMessages({ group_id: oldGroup, messages: [{ name: 'graphiti-memory.turn.bob.user', role_type: 'user', role: null, content: 'Bob is interviewing elsewhere.' }] });
  await client.close();
  await emulator.idle();
}

describe('migrate', () => {
  it("lists the old groups, copies only this install's episodes into the private group, and deletes the old group on request", async () => {
    const { emulator, folder } = fixture;
    const oldGroup = (await legacyWorkspaceGroupId('hashed', { folderUris: [pathToFileURL(path.join(folder, 'workspace')).href] })) ?? '';
    await seedOldInstall(oldGroup);
    const harness = (args: readonly string[]) => runCommand(folder, [...args, '--endpoint', emulator.url, '--json']);

    const dry = await harness(['migrate', '--dry-run']);
    expect(dry.exitCode, dry.err).toBe(0);
    expect(dry.json()).toMatchObject({ dryRun: true, copy: 2, groups: [{ scope: 'workspace', from: oldGroup, episodes: 3, mine: 2 }] });
    expect(emulator.state.episodes().filter((episode) => episode.group_id !== oldGroup)).toEqual([]);

    const run = await harness(['migrate', '--delete-old', '--yes']);
    expect(run.exitCode, run.err).toBe(0);
    const result = run.json() as { groups: Array<{ to: string }>; deletedGroups: string[] };
    const newGroup = result.groups[0]?.to ?? '';
    expect(newGroup).toMatch(/^gm_workspace_[0-9a-f]{32}$/);
    expect(newGroup).not.toBe(oldGroup);
    expect(result.deletedGroups).toEqual([oldGroup]);
    const copied = emulator.state.episodes().filter((episode) => episode.group_id === newGroup);
    expect(copied.map((episode) => episode.name).sort()).toEqual(['graphiti-memory.turn.t1.assistant', 'graphiti-memory.turn.t1.user']);
    expect(copied.map((episode) => episode.content).join('\n')).not.toContain('interviewing');
    expect(emulator.state.episodes().filter((episode) => episode.group_id === oldGroup)).toEqual([]);
  });
});
