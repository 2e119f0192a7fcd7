import { parseMemorySettings } from '@graphiti-memory/memory-core';
import { describe, expect, it } from 'vitest';
import { harnessSettings } from './harness-settings.js';
import { TerminalWorkspaceContext } from '@graphiti-memory/agent-hooks';

describe('harnessSettings', () => {
  it('is valid memory-core settings, enabled for the endpoint', () => {
    const parsed = parseMemorySettings(harnessSettings({ endpoint: 'http://localhost:8000', options: { timeoutMs: 5_000, scopes: undefined } }));
    expect(parsed.ok).toBe(true);
    expect(parsed.settings).toMatchObject({ enabled: true, endpoint: 'http://localhost:8000', scopes: 'both', recall: { enabled: true, scopes: 'all' } });
  });

  it('maps --scopes to the ingest scopes and clamps timeouts into the settings bounds', () => {
    const settings = harnessSettings({
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
