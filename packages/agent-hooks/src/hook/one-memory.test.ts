// One memory across tools: the extension, the harness and a hook must give a workspace the same
// group ids. Each host's WorkspaceContext is fed as that host feeds it, and memory-core's one
// resolver must land on one group — with a git remote and, without one, from the folder.
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createMemoryModule,
  GlobalStore,
  GroupIdResolver,
  SettingsSource,
  USER_KEY_STORAGE_KEY,
  WorkspaceContext,
  type GitMetadata,
  type KeyValueStore,
} from '@graphiti-memory/memory-core';
import { Container } from 'inversify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readGitFacts } from '../composition/git-facts.js';
import { StaticSettingsSource } from '../composition/static-settings-source.js';
import { TerminalWorkspaceContext } from '../composition/terminal-workspace-context.js';

/** What the extension's VsCodeWorkspaceContext hands memory-core: VS Code URIs and its own remote spelling. */
function extensionContext(folderUri: string, remote: string | undefined): WorkspaceContext {
  return {
    isTrusted: () => true,
    folderUris: () => [folderUri],
    gitRemote: () => remote,
    gitMetadata: (): GitMetadata | undefined => undefined,
    accountId: () => undefined,
  };
}

function store(userKey: string): KeyValueStore {
  const values = new Map<string, unknown>([[USER_KEY_STORAGE_KEY, userKey]]);
  return { get: <T>(key: string) => values.get(key) as T | undefined, set: async (key, value) => void values.set(key, value), delete: async (key) => void values.delete(key) };
}

async function groupsOf(workspace: WorkspaceContext, userKey = 'shared-user-key'): Promise<{ workspace?: string; user?: string }> {
  // Composed as every tool composes it: memory-core's module over the host's ports.
  const container = new Container();
  container.bind(SettingsSource).toConstantValue(new StaticSettingsSource({ enabled: true, groupIdStrategy: 'hashed' }));
  container.bind(WorkspaceContext).toConstantValue(workspace);
  container.bind(GlobalStore).toConstantValue(store(userKey));
  container.loadSync(createMemoryModule());
  const resolver = container.get<GroupIdResolver>(GroupIdResolver);
  const [workspaceGroup, userGroup] = await Promise.all([resolver.resolve('workspace'), resolver.resolve('user')]);
  return { ...(workspaceGroup === undefined ? {} : { workspace: workspaceGroup }), ...(userGroup === undefined ? {} : { user: userGroup }) };
}

let root: string;
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'one-memory-'));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe('one memory across tools', () => {
  it('gives a repository with a remote one workspace group in the extension, the harness and a hook', async () => {
    const repository = path.join(root, 'widget');
    await fs.mkdir(repository);
    execFileSync('git', ['init', '-q', repository]);
    execFileSync('git', ['-C', repository, 'remote', 'add', 'origin', 'git@github.com:Acme/Widget.git']);
    // The harness and a hook read the remote from `.git/config` (with git metadata on, git adds the branch).
    const harness = await groupsOf(new TerminalWorkspaceContext(repository, await readGitFacts(repository)));
    const hookFirst = await groupsOf(new TerminalWorkspaceContext(repository, await readGitFacts(repository, { metadata: true })));
    const hookCached = await groupsOf(new TerminalWorkspaceContext(repository, await readGitFacts(repository)));
    // The extension: VS Code's folder URI, and the remote as its git adapter spells it.
    const extension = await groupsOf(extensionContext(`file://${repository.split(path.sep).map(encodeURIComponent).join('/')}`, 'github.com/acme/widget'));
    expect(harness.workspace).toMatch(/^gm_workspace_[0-9a-f]{32}$/);
    expect(hookFirst).toEqual(harness);
    expect(hookCached).toEqual(harness);
    expect(extension).toEqual(harness);
    // A clone over https is the same repository.
    const clone = path.join(root, 'clone');
    await fs.mkdir(clone);
    execFileSync('git', ['init', '-q', clone]);
    execFileSync('git', ['-C', clone, 'remote', 'add', 'origin', 'https://github.com/acme/widget.git']);
    expect(await groupsOf(new TerminalWorkspaceContext(clone, await readGitFacts(clone)))).toEqual(harness);
  });

  it('falls back to the folder identically when there is no remote, whatever the URI spelling', async () => {
    const folder = path.join(root, 'my repo@v2');
    await fs.mkdir(folder);
    const harness = await groupsOf(new TerminalWorkspaceContext(folder, await readGitFacts(folder)));
    const hook = await groupsOf(new TerminalWorkspaceContext(folder, await readGitFacts(folder, { metadata: true })));
    // vscode.Uri.file(folder).toString() percent-encodes the space and the `@`.
    const vscodeUri = `file://${folder.replace(/ /g, '%20').replace(/@/g, '%40')}`;
    const extension = await groupsOf(extensionContext(vscodeUri, undefined));
    expect(harness.workspace).toBeDefined();
    expect(hook).toEqual(harness);
    expect(extension).toEqual(harness);
    expect(pathToFileURL(folder).href).not.toBe(vscodeUri);
  });

  it('keeps different repositories and different user keys apart', async () => {
    const one = await groupsOf(extensionContext('file:///work/a', 'github.com/acme/a'));
    const two = await groupsOf(extensionContext('file:///work/a', 'github.com/acme/b'));
    const otherUser = await groupsOf(extensionContext('file:///work/a', 'github.com/acme/a'), 'another-user-key');
    expect(one.workspace).not.toBe(two.workspace);
    expect(one.user).toBe(two.user);
    expect(otherUser.user).not.toBe(one.user);
  });
});
