import { parseMemorySettings } from '@graphiti-memory/memory-core';
import { describe, expect, it } from 'vitest';
import { harnessSettings } from './harness-settings.js';
import { resolveMemoryConfigSync } from '@graphiti-memory/memory-node-storage';
import { TerminalWorkspaceContext } from '@graphiti-memory/agent-hooks';

/** The configuration of a machine with no config file and no variables: every default. */
const defaults = (() => {
  const resolution = resolveMemoryConfigSync({ workspaceFolder: undefined, env: { GRAPHITI_MEMORY_CONFIG_DIR: '/nonexistent/graphiti-memory-config' } });
  if (!resolution.ok) throw new Error(resolution.message);
  return resolution.config;
})();

describe('harnessSettings', () => {
  it('is valid memory-core settings, enabled for the endpoint', () => {
    const parsed = parseMemorySettings(harnessSettings({ configuration: defaults, endpoint: 'http://localhost:8000', options: { timeoutMs: 5_000, scopes: undefined } }));
    expect(parsed.ok).toBe(true);
    expect(parsed.settings).toMatchObject({ enabled: true, endpoint: 'http://localhost:8000', scopes: 'both', groupIdStrategy: 'hashed', includeGitMetadata: false, recall: { enabled: true, scopes: 'both' } });
  });

  it('maps --scopes to the ingest scopes and clamps timeouts into the settings bounds', () => {
    const settings = harnessSettings({
      configuration: defaults,
      endpoint: 'http://localhost:8000',
      options: { timeoutMs: 600_000, scopes: { kind: 'list', scopes: ['workspace', 'user'] } },
    });
    const parsed = parseMemorySettings(settings);
    expect(parsed.ok).toBe(true);
    expect(parsed.settings.scopes).toBe('workspace');
    expect(parsed.settings.timeoutMs).toBe(120_000);
    expect(parsed.settings.recall.timeoutMs).toBe(10_000);
  });
});

describe('harnessSettings and the configuration', () => {
  it('takes groupIdStrategy, includeGitMetadata and recall.scopes from the configuration', () => {
    const configuration = { ...defaults, settings: { ...defaults.settings, groupIdStrategy: 'raw' as const, includeGitMetadata: true, recall: { ...defaults.settings.recall, scopes: 'all' as const } } };
    const parsed = parseMemorySettings(harnessSettings({ configuration, endpoint: 'http://localhost:8000', options: { timeoutMs: 5_000, scopes: undefined } }));
    expect(parsed.settings).toMatchObject({ groupIdStrategy: 'raw', includeGitMetadata: true, recall: { scopes: 'all' } });
  });
});

describe('TerminalWorkspaceContext', () => {
  it('is trusted, names the folder as a file URI and passes git facts without a path', () => {
    const context = new TerminalWorkspaceContext('/tmp/some project', { remote: 'git@github.com:acme/app.git', branch: 'main', dirty: false });
    expect(context.isTrusted()).toBe(true);
    expect(context.folderUris()).toEqual(['file:///tmp/some%20project']);
    expect(context.gitRemote()).toBe('git@github.com:acme/app.git');
    expect(context.gitMetadata()).toEqual({ branch: 'main', dirty: false });
    expect(new TerminalWorkspaceContext('/tmp/x', {}).gitMetadata()).toBeUndefined();
  });
});
