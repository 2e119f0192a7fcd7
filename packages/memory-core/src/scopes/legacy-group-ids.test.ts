import { describe, expect, it } from 'vitest';
import { FakeSettingsSource, FakeWorkspaceContext, InMemoryKeyValueStore } from '../../test-support/fakes.js';
import { ConfiguredMemorySettings } from '../settings/memory-configuration.js';
import { DefaultGroupIdResolver, USER_KEY_STORAGE_KEY } from './group-id-resolver.js';
import { hashedGroupId } from './group-ids.js';
import { legacySessionGroupId, legacyWorkspaceGroupId } from './legacy-group-ids.js';

describe('legacy group ids (what migrate looks for)', () => {
  it('are the ids of the old, repository-only derivation, and differ from the new private ones', async () => {
    const legacy = await legacyWorkspaceGroupId('hashed', { gitRemote: 'git@github.com:acme/app.git', folderUris: ['file:///a'] });
    expect(legacy).toBe(await hashedGroupId('workspace', 'git-remote:github.com/acme/app'));
    expect(await legacyWorkspaceGroupId('hashed', { gitRemote: 'https://github.com/Acme/App', folderUris: [] })).toBe(legacy);
    expect(await legacyWorkspaceGroupId('raw', { folderUris: ['file:///w'] })).toBe('gm_workspace_file_w-h' + (await legacyRawSuffix()));
    expect(await legacyWorkspaceGroupId('hashed', { folderUris: [] })).toBeUndefined();
    expect(await legacySessionGroupId('hashed', 's1')).toBe(await hashedGroupId('session', 'session:s1'));

    const store = new InMemoryKeyValueStore();
    await store.set(USER_KEY_STORAGE_KEY, 'alice-key-0001');
    const resolver = new DefaultGroupIdResolver(
      new ConfiguredMemorySettings(new FakeSettingsSource({})),
      new FakeWorkspaceContext({ gitRemote: 'git@github.com:acme/app.git' }),
      store,
    );
    expect(await resolver.resolve('workspace')).not.toBe(legacy);
    expect(await resolver.resolve('session', { sessionId: 's1' })).not.toBe(await legacySessionGroupId('hashed', 's1'));
  });
});

async function legacyRawSuffix(): Promise<string> {
  const { sha256Hex } = await import('./sha256.js');
  return (await sha256Hex('graphiti-memory:workspace:file:///w')).slice(0, 16);
}
