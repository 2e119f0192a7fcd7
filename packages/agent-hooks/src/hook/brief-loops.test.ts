// The brief's open loops: named with age and source within the budget, even when no tier was ever
// read (they are kept on this machine), said once (a resumed session is not told them again).
import { NOTHING_SAID, withSaid, type OpenLoop, type TierBrief } from '@graphiti-memory/memory-core';
import { describe, expect, it } from 'vitest';
import { renderBrief } from './brief-lines.js';
import { briefLoops } from './brief-loops.js';

const NOW = new Date('2026-11-23T12:00:00Z');
const GROUP = 'gm_workspace_1';

function loop(id: string, text: string, updatedAt: string): OpenLoop {
  return { id, text, scope: 'workspace', groupId: GROUP, status: 'open', evidence: { tool: 'Claude Code', sessionId: 's1', at: updatedAt, marker: 'todo' }, createdAt: updatedAt, updatedAt, mentions: 1 };
}

const source = (loops: readonly OpenLoop[]) => ({ loopStore: { list: async () => loops }, groups: { resolve: async () => GROUP } });
const cold: TierBrief = { found: false, updatedAt: '', promoted: [], facts: [], refreshDue: true, unavailable: true };

describe('the brief of open loops', () => {
  const loops = [loop('a1', 'add a migration test', '2026-11-20T12:00:00Z'), loop('b2', 'check the staging deploy', '2026-11-22T12:00:00Z'), loop('c3', 'an old idea', '2026-09-01T12:00:00Z')];

  it('names the open loops newest first with age and source, leaving stale ones out, with no tier found', async () => {
    const named = await briefLoops(source(loops), 30, NOTHING_SAID, NOW);
    const rendered = await renderBrief(cold, 1_500, NOW, named);
    expect(rendered?.text.split('\n').filter((line) => line.startsWith('- '))).toEqual([
      '- Open loop: check the staging deploy (open for 24 hours, Claude Code)',
      '- Open loop: add a migration test (open for 3 days, Claude Code)',
    ]);
    // Said once: a resumed session holding what this brief gave is not told them again.
    const said = await withSaid(NOTHING_SAID, rendered?.said ?? {});
    expect(await briefLoops(source(loops), 30, said, NOW)).toEqual([]);
  });

  it('stays within the budget: loops that do not fit are left out, and nothing is said of them', async () => {
    const named = await briefLoops(source(loops), 30, NOTHING_SAID, NOW);
    expect(await renderBrief(cold, 20, NOW, named)).toBeUndefined();
  });

  it('fails open: a store that cannot be read names nothing', async () => {
    expect(await briefLoops({ loopStore: { list: () => Promise.reject(new Error('EACCES')) }, groups: { resolve: async () => GROUP } }, 30, NOTHING_SAID, NOW)).toEqual([]);
  });
});
