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
    container.bind(GlobalStore).toConstantValue(keyStore('alice-key-0001'));
    container.bind(GroupIdResolver).to(DefaultGroupIdResolver).inSingletonScope();
    const resolver = container.get<GroupIdResolver>(GroupIdResolver);
    expect(await resolver.resolve('session', { sessionId: 's1' })).toBe(await hashedGroupId('session', 'owner=user-key:alice-key-0001\nsession:s1'));
  });

  it('session: from the user and the chat session id; undefined without one', async () => {
    const { resolver } = resolverWith({}, {}, keyStore('alice-key-0001'));
    const first = await resolver.resolve('session', { sessionId: 'chat-1' });
    expect(first).toMatch(/^gm_session_[0-9a-f]{32}$/);
    expect(await resolver.resolve('session', { sessionId: 'chat-2' })).not.toBe(first);
    expect(await resolver.resolve('session')).toBeUndefined();
    expect(await resolver.resolve('session', { sessionId: '  ' })).toBeUndefined();
    // Two people whose tools give the same session id still get two groups.
    expect(await resolverWith({}, {}, keyStore('bob-key-000002')).resolver.resolve('session', { sessionId: 'chat-1' })).not.toBe(first);
  });

  it('workspace: the same id whatever the folder order', async () => {
    const folders = ['file:///home/dev/api', 'file:///home/dev/web'];
    const store = keyStore('alice-key-0001');
    const first = await resolverWith({ folderUris: folders }, {}, store).resolver.resolve('workspace');
    const reversed = await resolverWith({ folderUris: [...folders].reverse() }, {}, store).resolver.resolve('workspace');
    expect(first).toMatch(/^gm_workspace_[0-9a-f]{32}$/);
    expect(reversed).toBe(first);
    expect(await resolverWith({ folderUris: ['file:///home/dev/api'] }, {}, store).resolver.resolve('workspace')).not.toBe(first);
  });

  it('workspace: undefined without folders or remote', async () => {
    const { resolver } = resolverWith({ folderUris: [] }, {}, keyStore('alice-key-0001'));
    expect(await resolver.resolve('workspace')).toBeUndefined();
    expect(await resolver.resolveMany(['session', 'workspace'], { sessionId: 's' })).toEqual([
      { scope: 'session', groupId: await hashedGroupId('session', 'owner=user-key:alice-key-0001\nsession:s') },
    ]);
  });

  it('user: an account id is hashed even with groupIdStrategy raw, so it never leaves the machine as it is', async () => {
    const { resolver } = resolverWith({ accountId: 'alice@example.com', folderUris: ['file:///w'] }, { groupIdStrategy: 'raw' });
    const groupId = await resolver.resolve('user');
    expect(groupId).toBe(await hashedGroupId('user', 'account:alice@example.com'));
    expect(groupId).not.toContain('alice');
    const workspace = await resolver.resolve('workspace');
    expect(workspace).toMatch(/^gm_workspace_file_w_u[0-9a-f]{12}-h[0-9a-f]{16}$/);
    expect(workspace).not.toContain('alice');
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

  it('follows the groupIdStrategy setting; raw ids stay readable for the repository, never for the person', async () => {
    const store = keyStore('alice-key-0001');
    const { resolver, source } = resolverWith({ folderUris: [], gitRemote: 'git@github.com:acme/app.git' }, { groupIdStrategy: 'raw' }, store);
    const workspace = await resolver.resolve('workspace');
    expect(workspace).toMatch(/^gm_workspace_github_com_acme_app_u[0-9a-f]{12}-h[0-9a-f]{16}$/);
    expect(workspace).not.toContain('alice');
    expect(await resolver.resolve('session', { sessionId: 'chat-1' })).toMatch(/^gm_session_chat-1_u[0-9a-f]{12}$/);
    expect(await resolver.resolve('team')).toBe(await rawGroupId('team', 'github.com/acme/app'));
    source.set({ groupIdStrategy: 'hashed' });
    expect(await resolver.resolve('session', { sessionId: 'chat-1' })).toMatch(/^gm_session_[0-9a-f]{32}$/);
  });
});

// The contract of issue 21: private groups are one person's, the team group is the repository's.
describe('group derivation contract', () => {
  const spellings = [
    'https://github.com/acme/app.git',
    'git@github.com:acme/app.git',
    'ssh://git@github.com:22/Acme/App/',
    'https://alice@GitHub.com/acme/app',
    'github.com/acme/app',
  ] as const;

  for (const strategy of ['hashed', 'raw'] as const) {
    it(`${strategy}: the same user key gives the same workspace group on every machine and path`, async () => {
      const laptop = resolverWith({ folderUris: ['file:///home/alice/src/app'], gitRemote: spellings[0] }, { groupIdStrategy: strategy }, keyStore('alice-key-0001'));
      const desktop = resolverWith({ folderUris: ['file:///c%3A/work/app'], gitRemote: spellings[1] }, { groupIdStrategy: strategy }, keyStore('alice-key-0001'));
      expect(await laptop.resolver.resolve('workspace')).toBe(await desktop.resolver.resolve('workspace'));
      expect(await laptop.resolver.resolve('user')).toBe(await desktop.resolver.resolve('user'));
      expect(await laptop.resolver.resolve('session', { sessionId: 'c1' })).toBe(await desktop.resolver.resolve('session', { sessionId: 'c1' }));
    });

    it(`${strategy}: different users never share a workspace, session or user group`, async () => {
      const workspace = { folderUris: ['file:///repo'], gitRemote: spellings[0] };
      const alice = resolverWith(workspace, { groupIdStrategy: strategy }, keyStore('alice-key-0001')).resolver;
      const bob = resolverWith(workspace, { groupIdStrategy: strategy }, keyStore('bob-key-000002')).resolver;
      const carol = resolverWith({ ...workspace, accountId: 'carol@example.com' }, { groupIdStrategy: strategy }).resolver;
      for (const scope of ['workspace', 'user'] as const) {
        const ids = new Set([await alice.resolve(scope), await bob.resolve(scope), await carol.resolve(scope)]);
        expect(ids.size).toBe(3);
      }
      const sessions = new Set([await alice.resolve('session', { sessionId: 's' }), await bob.resolve('session', { sessionId: 's' })]);
      expect(sessions.size).toBe(2);
    });

    it(`${strategy}: the team group is the same for every clone and every user, whatever the remote's spelling`, async () => {
      const ids = new Set<string | undefined>();
      for (const [index, remote] of spellings.entries()) {
        const key = index % 2 === 0 ? 'alice-key-0001' : 'bob-key-000002';
        const { resolver } = resolverWith({ folderUris: [`file:///clone-${index}`], gitRemote: remote }, { groupIdStrategy: strategy }, keyStore(key));
        ids.add(await resolver.resolve('team'));
      }
      expect(ids.size).toBe(1);
      const [team] = [...ids];
      expect(team).toMatch(/^gm_team_/);
      // Never raw user data: neither key nor account appears, and the workspace group is another one.
      expect(team).not.toMatch(/alice|bob/);
      const other = resolverWith({ gitRemote: 'git@github.com:acme/other.git' }, { groupIdStrategy: strategy }, keyStore('alice-key-0001'));
      expect(await other.resolver.resolve('team')).not.toBe(team);
    });
  }

  it('no git remote, no team group: folders never stand in for it', async () => {
    const { resolver } = resolverWith({ folderUris: ['file:///home/alice/app'] }, {}, keyStore('alice-key-0001'));
    expect(await resolver.resolve('team')).toBeUndefined();
    expect(await resolver.resolve('workspace')).toMatch(/^gm_workspace_/);
  });
});

function keyStore(userKey: string): InMemoryKeyValueStore {
  const store = new InMemoryKeyValueStore();
  void store.set(USER_KEY_STORAGE_KEY, userKey);
  return store;
}
