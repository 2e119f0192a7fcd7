import { InMemoryForgetLedger, type ForgetLedger } from '@graphiti-memory/memory-core';
import { describe, expect, it } from 'vitest';
import { refreshableTierGroups } from './tier-groups.js';

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
