import { InMemoryForgetLedger, type ForgetLedger, type GroupIdResolver, type MemoryScope, type ScopeContext } from '@graphiti-memory/memory-core';
import { describe, expect, it } from 'vitest';
import { refreshableTierGroups, tierGroupsOf } from './tier-groups.js';

/** Resolves every scope asked for (`session` only with a session id, none without a workspace), and records what was asked. */
class RecordingResolver implements GroupIdResolver {
  readonly asked: MemoryScope[][] = [];
  constructor(private readonly hasWorkspace = true) {}
  resolve(scope: MemoryScope, context: ScopeContext = {}): Promise<string | undefined> {
    if (scope === 'session') return Promise.resolve(context.sessionId === undefined ? undefined : `gm_session_${context.sessionId}`);
    if (scope !== 'user' && !this.hasWorkspace) return Promise.resolve(undefined);
    return Promise.resolve(`gm_${scope}_g`);
  }
  async resolveMany(scopes: readonly MemoryScope[], context: ScopeContext = {}): Promise<{ scope: MemoryScope; groupId: string }[]> {
    this.asked.push([...scopes]);
    const resolved = await Promise.all(scopes.map(async (scope) => ({ scope, groupId: await this.resolve(scope, context) })));
    return resolved.flatMap(({ scope, groupId }) => (groupId === undefined ? [] : [{ scope, groupId }]));
  }
}

describe('tierGroupsOf', () => {
  it("names the team group only with the user's consent to the team scope, and the session's only for a session", async () => {
    const resolver = new RecordingResolver();
    expect(await tierGroupsOf(resolver, false)).toEqual({ workspace: 'gm_workspace_g', user: 'gm_user_g' });
    expect(resolver.asked.flat()).not.toContain('team');
    expect(await tierGroupsOf(resolver, true, 's1')).toEqual({ workspace: 'gm_workspace_g', user: 'gm_user_g', team: 'gm_team_g', session: 'gm_session_s1' });
  });

  it('is undefined without a workspace group (no tier to brief from or refresh)', async () => {
    expect(await tierGroupsOf(new RecordingResolver(false), true, 's1')).toBeUndefined();
  });
});

describe('refreshableTierGroups', () => {
  it('reads nothing of a workspace whose delete is owed, leaves out an owed user group, and reads again once deleted', async () => {
    const ledger = new InMemoryForgetLedger();
    const groups = { workspace: 'gm_workspace_w', user: 'gm_user_u' };
    expect(await refreshableTierGroups(ledger, groups)).toEqual(groups);
    await ledger.forgetGroups(['gm_user_u'], 1);
    expect(await refreshableTierGroups(ledger, groups)).toEqual({ workspace: 'gm_workspace_w' });
    await ledger.forgetGroups(['gm_workspace_w'], 2);
    expect(await refreshableTierGroups(ledger, groups)).toBeUndefined();
    await ledger.deleted(['gm_workspace_w', 'gm_user_u']);
    expect(await refreshableTierGroups(ledger, groups)).toEqual(groups);
  });

  it('reads nothing when the record cannot be read', async () => {
    const broken: ForgetLedger = { ...new InMemoryForgetLedger(), read: () => Promise.reject(new Error('EIO')) } as unknown as ForgetLedger;
    expect(await refreshableTierGroups(broken, { workspace: 'gm_workspace_w' })).toBeUndefined();
  });
});
