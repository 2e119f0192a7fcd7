import { describe, expect, it } from 'vitest';
import type { GroupRecord } from '../registry/index.js';
import { forgetTargets } from './forget-policy.js';

function record(groupId: string, fields: Partial<GroupRecord> & Pick<GroupRecord, 'scope'>): GroupRecord {
  return { groupId, tools: ['t'], firstWriteAt: 1, lastWriteAt: 2, messages: 1, ...fields };
}

const records: GroupRecord[] = [
  record('ws-a', { scope: 'workspace', workspaceKey: 'ws-a' }),
  record('s-a1', { scope: 'session', workspaceKey: 'ws-a', sessionId: 'a1' }),
  record('s-a2', { scope: 'session', workspaceKey: 'ws-a', sessionId: 'a2' }),
  record('ws-b', { scope: 'workspace', workspaceKey: 'ws-b' }),
  record('s-b1', { scope: 'session', workspaceKey: 'ws-b', sessionId: 'b1' }),
  record('u-1', { scope: 'user' }),
];
const ids = (targets: ReturnType<typeof forgetTargets>) => targets.map((target) => target.groupId);

describe('forgetTargets', () => {
  it('covers the workspace group and every session that ran in it, never another workspace or the user', () => {
    expect(ids(forgetTargets({ scope: 'workspace' }, records, { workspace: 'ws-a', user: 'u-1' }))).toEqual(['ws-a', 's-a1', 's-a2']);
  });

  it('covers the current workspace group even before the registry knew it, and nothing without a workspace', () => {
    expect(ids(forgetTargets({ scope: 'workspace' }, [], { workspace: 'ws-new' }))).toEqual(['ws-new']);
    expect(forgetTargets({ scope: 'workspace' }, records, {})).toEqual([]);
  });

  it('covers one session by id', () => {
    expect(forgetTargets({ scope: 'session', sessionId: 'a2' }, records, { session: 's-a2' })).toEqual([
      { groupId: 's-a2', scope: 'session', sessionId: 'a2' },
    ]);
  });

  it('covers the user scope only when named', () => {
    expect(ids(forgetTargets({ all: true }, records, { user: 'u-1' }))).toEqual(['ws-a', 's-a1', 's-a2', 'ws-b', 's-b1']);
    expect(ids(forgetTargets({ all: true, includeUser: true }, records, { user: 'u-2' }))).toEqual([...ids(forgetTargets({ all: true }, records, {})), 'u-1', 'u-2']);
    expect(ids(forgetTargets({ scope: 'user' }, records, { user: 'u-1' }))).toEqual(['u-1']);
  });
});

describe('the mirror group', () => {
  const mirror: GroupRecord = { groupId: 'mirror-a', scope: 'mirror', workspaceKey: 'ws-a', tools: ['t'], firstWriteAt: 1, lastWriteAt: 1, messages: 1 };
  const other: GroupRecord = { ...mirror, groupId: 'mirror-b', workspaceKey: 'ws-b' };

  it('goes with a workspace forget: the one resolved now, and one the registry knows this workspace wrote', () => {
    expect(forgetTargets({ scope: 'workspace' }, [], { workspace: 'ws-a', mirror: 'mirror-a' }).map((target) => [target.groupId, target.scope])).toEqual([
      ['ws-a', 'workspace'],
      ['mirror-a', 'mirror'],
    ]);
    expect(forgetTargets({ scope: 'workspace' }, [mirror, other], { workspace: 'ws-a' }).map((target) => target.groupId)).toEqual(['mirror-a', 'ws-a']);
  });
});
