import type { GraphitiApi } from '../ports.js';
import { describe, expect, it } from 'vitest';
import { InMemoryForgetLedger } from './forget-ledger.js';
import { OwedDeletions } from './owed-deletions.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/** A Graphiti whose group deletes answer only when released, and that counts them. */
function slowGraphiti() {
  const deletes: string[] = [];
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const api = {
    deleteGroup: async (groupId: string) => {
      deletes.push(groupId);
      await released;
      return { message: 'deleted', success: true };
    },
  } as unknown as GraphitiApi;
  return { api, deletes, release };
}

describe('OwedDeletions', () => {
  it('deletes a group once when a drain pass and the forget that owes it run at the same time, and both report it deleted', async () => {
    const ledger = new InMemoryForgetLedger();
    const owed = new OwedDeletions(quiet, ledger);
    await owed.owe(['gm_workspace_a'], Date.now());
    const graphiti = slowGraphiti();
    // The drain pass starts first (every owed group), the forget's own delete of its group right after.
    const drain = owed.carryOut(graphiti.api);
    const forget = owed.carryOut(graphiti.api, {}, ['gm_workspace_a']);
    graphiti.release();
    expect(await drain).toEqual({ deleted: ['gm_workspace_a'], failed: [] });
    expect(await forget).toEqual({ deleted: ['gm_workspace_a'], failed: [] });
    expect(graphiti.deletes).toEqual(['gm_workspace_a']);
    expect(await owed.owed()).toEqual([]);
  });

  it('deletes a named group that was never owed here (no forget ledger state), as a forget asks', async () => {
    const owed = new OwedDeletions(quiet, new InMemoryForgetLedger());
    const graphiti = slowGraphiti();
    graphiti.release();
    expect(await owed.carryOut(graphiti.api, {}, ['gm_session_b'])).toEqual({ deleted: ['gm_session_b'], failed: [] });
    expect(graphiti.deletes).toEqual(['gm_session_b']);
  });
});
