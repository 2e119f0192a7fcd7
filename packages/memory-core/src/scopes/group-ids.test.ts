import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MemoryScope } from '../ports.js';
import {
  folderIdentity,
  GROUP_ID_CHARSET,
  GROUP_ID_MAX_LENGTH,
  hashedGroupId,
  normaliseFolderUri,
  normaliseGitRemote,
  rawGroupId,
  scopeOfGroupId,
} from './group-ids.js';
import { sha256Hex } from './sha256.js';
import { isTeamGroupId } from './team-scope.js';

const scopes = fc.constantFrom<MemoryScope>('session', 'workspace', 'user');
const identities = fc.oneof(
  fc.string({ minLength: 1, maxLength: 300 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 200 }),
  fc.webUrl(),
);

describe('sha256Hex', () => {
  it('matches the SHA-256 test vector', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('hashedGroupId', () => {
  it('is gm_<scope>_<32 hex>, stable across calls', async () => {
    const id = await hashedGroupId('workspace', 'git-remote:github.com/acme/app');
    expect(id).toMatch(/^gm_workspace_[0-9a-f]{32}$/);
    expect(await hashedGroupId('workspace', 'git-remote:github.com/acme/app')).toBe(id);
    // Pinned: the same inputs give the same id on every machine and in every later version.
    expect(id).toBe(`gm_workspace_${(await sha256Hex('graphiti-memory:workspace:git-remote:github.com/acme/app')).slice(0, 32)}`);
  });

  it('is charset-safe, deterministic and never reveals the identity (property)', async () => {
    await fc.assert(
      fc.asyncProperty(scopes, identities, async (scope, identity) => {
        const id = await hashedGroupId(scope, identity);
        expect(id).toMatch(GROUP_ID_CHARSET);
        expect(id).toMatch(new RegExp(`^gm_${scope}_[0-9a-f]{32}$`));
        expect(await hashedGroupId(scope, identity)).toBe(id);
      }),
    );
  });

  it('gives different ids to different identities and to different scopes (property)', async () => {
    await fc.assert(
      fc.asyncProperty(scopes, identities, identities, async (scope, first, second) => {
        fc.pre(first !== second);
        expect(await hashedGroupId(scope, first)).not.toBe(await hashedGroupId(scope, second));
      }),
    );
    expect(await hashedGroupId('session', 'x')).not.toBe(await hashedGroupId('user', 'x'));
  });

  it('refuses an empty identity (a caller bug)', async () => {
    await expect(hashedGroupId('session', '')).rejects.toThrow(/identity must be a non-empty string/);
  });
});

describe('rawGroupId', () => {
  it('keeps a safe identity readable as it is', async () => {
    expect(await rawGroupId('session', 'chat-2026_01')).toBe('gm_session_chat-2026_01');
  });

  it('sanitises and appends a hash when characters were replaced', async () => {
    const id = await rawGroupId('workspace', 'github.com/acme/app');
    expect(id).toMatch(/^gm_workspace_github_com_acme_app-h[0-9a-f]{16}$/);
    expect(await rawGroupId('workspace', 'github.com:acme/app')).not.toBe(id);
  });

  it('caps long identities at 128 characters, keeping them apart', async () => {
    const long = 'a'.repeat(500);
    const id = await rawGroupId('user', long);
    expect(id).toHaveLength(GROUP_ID_MAX_LENGTH);
    expect(await rawGroupId('user', `${long}b`)).not.toBe(id);
  });

  it('cannot be spoofed by an identity that looks like a hashed suffix', async () => {
    const lossy = await rawGroupId('session', 'a b');
    const suffix = lossy.slice('gm_session_'.length);
    expect(await rawGroupId('session', suffix)).not.toBe(lossy);
  });

  it('is charset-safe, capped, deterministic and collision-free (property)', async () => {
    await fc.assert(
      fc.asyncProperty(scopes, identities, identities, async (scope, first, second) => {
        const id = await rawGroupId(scope, first);
        expect(id).toMatch(GROUP_ID_CHARSET);
        expect(id.length).toBeLessThanOrEqual(GROUP_ID_MAX_LENGTH);
        expect(id.startsWith(`gm_${scope}_`)).toBe(true);
        expect(await rawGroupId(scope, first)).toBe(id);
        if (first !== second) expect(await rawGroupId(scope, second)).not.toBe(id);
      }),
    );
  });
});

describe('normaliseFolderUri', () => {
  it.each([
    ['file:///home/dev/app/', 'file:///home/dev/app'],
    ['FILE:///home/dev/app', 'file:///home/dev/app'],
    ['file:///c%3A/Users/dev/app', 'file:///c:/Users/dev/app'],
    ['file:///C:/Users/dev/app', 'file:///c:/Users/dev/app'],
    ['vscode-remote://SSH-Remote+Box/home/dev/my%20app', 'vscode-remote://ssh-remote+box/home/dev/my app'],
  ])('%s → %s', (input, expected) => {
    expect(normaliseFolderUri(input)).toBe(expected);
  });
});

describe('folderIdentity', () => {
  it('does not depend on folder order or duplicates (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.webUrl(), { minLength: 1, maxLength: 5 }), fc.integer(), (folders, seed) => {
        const shuffled = [...folders, folders[0] ?? ''].sort((a, b) => ((a.length * seed) % 7) - ((b.length * seed) % 7));
        expect(folderIdentity(shuffled)).toBe(folderIdentity(folders));
      }),
    );
  });

  it('is undefined without folders', () => {
    expect(folderIdentity([])).toBeUndefined();
    expect(folderIdentity(['  '])).toBeUndefined();
  });
});

describe('normaliseGitRemote', () => {
  it.each([
    'https://github.com/acme/app.git',
    'https://github.com/acme/app',
    'https://user@GitHub.com/acme/app.git/',
    'git@github.com:acme/app.git',
    'ssh://git@github.com/acme/app',
    'git://github.com/acme/app.git',
    'ssh://git@github.com:22/Acme/App.git',
    'https://github.com/ACME/app',
    // What the VS Code extension hands over (already normalised by its git adapter).
    'github.com/acme/app',
  ])('%s → github.com/acme/app', (remote) => {
    expect(normaliseGitRemote(remote)).toBe('github.com/acme/app');
  });

  it('keeps different repositories apart', () => {
    expect(normaliseGitRemote('git@github.com:acme/app.git')).not.toBe(normaliseGitRemote('git@github.com:acme/api.git'));
  });
});

describe('scopeOfGroupId', () => {
  it('reads the scope back from ids of either strategy, and none from a foreign id', async () => {
    for (const scope of ['session', 'workspace', 'user', 'team'] as const) {
      expect(scopeOfGroupId(await hashedGroupId(scope, 'git-remote:github.com/acme/app'))).toBe(scope);
      expect(scopeOfGroupId(await rawGroupId(scope, 'github.com/acme/app'))).toBe(scope);
    }
    expect(scopeOfGroupId('team_shared')).toBeUndefined();
    expect(scopeOfGroupId('gm_other_1')).toBeUndefined();
    expect(isTeamGroupId(await rawGroupId('team', 'x'))).toBe(true);
    expect(isTeamGroupId(await hashedGroupId('workspace', 'x'))).toBe(false);
  });
});
