import { Container } from 'inversify';
import { describe, expect, it } from 'vitest';
import { GlobalStore, SettingsSource, WorkspaceContext } from '../ports.js';
import { ConfiguredMemorySettings, MemoryConfiguration } from '../settings/memory-configuration.js';
import { FakeSettingsSource, FakeWorkspaceContext, InMemoryKeyValueStore, type FakeWorkspaceOptions } from '../../test-support/fakes.js';
import { DefaultGroupIdResolver, GroupIdResolver, USER_KEY_STORAGE_KEY } from './group-id-resolver.js';
import { hashedGroupId, rawGroupId } from './group-ids.js';

function resolverWith(workspaceOptions: FakeWorkspaceOptions = {}, settings: unknown = {}, store = new InMemoryKeyValueStore()) {
  const source = new FakeSettingsSource(settings);
  const workspace = new FakeWorkspaceContext(workspaceOptions);
  const resolver = new DefaultGroupIdResolver(new ConfiguredMemorySettings(source), workspace, store);
  return { resolver, workspace, store, source };
}

describe('DefaultGroupIdResolver', () => {
  it('resolves through inversify', async () => {
    const container = new Container();
    container.bind(SettingsSource).toConstantValue(new FakeSettingsSource({}));
    container.bind(MemoryConfiguration).to(ConfiguredMemorySettings).inSingletonScope();
    container.bind(WorkspaceContext).toConstantValue(new FakeWorkspaceContext());
    container.bind(GlobalStore).toConstantValue(new InMemoryKeyValueStore());
    container.bind(GroupIdResolver).to(DefaultGroupIdResolver).inSingletonScope();
    const resolver = container.get<GroupIdResolver>(GroupIdResolver);
    expect(await resolver.resolve('session', { sessionId: 's1' })).toBe(await hashedGroupId('session', 'session:s1'));
  });

  it('session: from the chat session id; undefined without one', async () => {
    const { resolver } = resolverWith();
    const first = await resolver.resolve('session', { sessionId: 'chat-1' });
    expect(first).toMatch(/^gm_session_[0-9a-f]{32}$/);
    expect(await resolver.resolve('session', { sessionId: 'chat-2' })).not.toBe(first);
    expect(await resolver.resolve('session')).toBeUndefined();
    expect(await resolver.resolve('session', { sessionId: '  ' })).toBeUndefined();
  });

  it('workspace: the same id whatever the folder order', async () => {
    const folders = ['file:///home/dev/api', 'file:///home/dev/web'];
    const first = await resolverWith({ folderUris: folders }).resolver.resolve('workspace');
    const reversed = await resolverWith({ folderUris: [...folders].reverse() }).resolver.resolve('workspace');
    expect(first).toMatch(/^gm_workspace_[0-9a-f]{32}$/);
    expect(reversed).toBe(first);
    expect(await resolverWith({ folderUris: ['file:///home/dev/api'] }).resolver.resolve('workspace')).not.toBe(first);
  });

  it('workspace: prefers the git remote, the same for every clone of the repository', async () => {
    const https = await resolverWith({ folderUris: ['file:///a'], gitRemote: 'https://github.com/acme/app.git' }).resolver.resolve('workspace');
    const ssh = await resolverWith({ folderUris: ['file:///b'], gitRemote: 'git@github.com:acme/app.git' }).resolver.resolve('workspace');
    expect(ssh).toBe(https);
    expect(await resolverWith({ folderUris: ['file:///a'] }).resolver.resolve('workspace')).not.toBe(https);
  });

  it('workspace: undefined without folders or remote', async () => {
    const { resolver } = resolverWith({ folderUris: [] });
    expect(await resolver.resolve('workspace')).toBeUndefined();
    expect(await resolver.resolveMany(['session', 'workspace'], { sessionId: 's' })).toEqual([
      { scope: 'session', groupId: await hashedGroupId('session', 'session:s') },
    ]);
  });

  it('user: an account id is hashed even with groupIdStrategy raw, so it never leaves the machine as it is', async () => {
    const { resolver } = resolverWith({ accountId: 'alice@example.com', folderUris: ['file:///w'] }, { groupIdStrategy: 'raw' });
    const groupId = await resolver.resolve('user');
    expect(groupId).toBe(await hashedGroupId('user', 'account:alice@example.com'));
    expect(groupId).not.toContain('alice');
    expect(await resolver.resolve('workspace')).toBe(await rawGroupId('workspace', 'file:///w'));
  });

  it('user: from the account id when given', async () => {
    const { resolver, store } = resolverWith({ accountId: 'alice@example.com' });
    expect(await resolver.resolve('user')).toBe(await hashedGroupId('user', 'account:alice@example.com'));
    expect(store.get(USER_KEY_STORAGE_KEY)).toBeUndefined();
  });

  it('user: else a random key created once, stored, and reused by later runs', async () => {
    const store = new InMemoryKeyValueStore();
    const first = resolverWith({}, {}, store).resolver;
    const [a, b] = await Promise.all([first.resolve('user'), first.resolve('user')]);
    expect(a).toBe(b);
    const key = store.get<string>(USER_KEY_STORAGE_KEY);
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(await resolverWith({}, {}, store).resolver.resolve('user')).toBe(a);
    expect(await resolverWith({}, {}, new InMemoryKeyValueStore()).resolver.resolve('user')).not.toBe(a);
  });

  it('user: follows a key the host replaces in the GlobalStore (a key set by the user or derived from the account)', async () => {
    const store = new InMemoryKeyValueStore();
    const { resolver } = resolverWith({}, {}, store);
    const before = await resolver.resolve('user');
    await store.set(USER_KEY_STORAGE_KEY, 'gh_0123456789abcdef');
    expect(await resolver.resolve('user')).toBe(await hashedGroupId('user', 'user-key:gh_0123456789abcdef'));
    expect(await resolver.resolve('user')).not.toBe(before);
  });

  it('follows the groupIdStrategy setting', async () => {
    const { resolver, source } = resolverWith({ folderUris: [], gitRemote: 'git@github.com:acme/app.git' }, { groupIdStrategy: 'raw' });
    expect(await resolver.resolve('workspace')).toBe(await rawGroupId('workspace', 'github.com/acme/app'));
    expect(await resolver.resolve('session', { sessionId: 'chat-1' })).toBe('gm_session_chat-1');
    source.set({ groupIdStrategy: 'hashed' });
    expect(await resolver.resolve('session', { sessionId: 'chat-1' })).toMatch(/^gm_session_[0-9a-f]{32}$/);
  });
});
