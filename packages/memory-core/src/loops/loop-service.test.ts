// Loops through the turn planner (the capture path every assistant shares): a turn's markers
// change the workspace's loops and plan `task_update` episodes; a secret keeps a marker out whole;
// a closed gate captures nothing; closing by hand plans the closing episode.
import { describe, expect, it } from 'vitest';
import type { ChatTurn } from '../ports.js';
import { FakeValues } from '../../test-support/secret-corpus/fake-values.js';
import { createPolicyServices } from '../../test-support/memory-services.js';

const fake = new FakeValues('loop service tests');
const githubToken = `ghp_${fake.alphanumeric(36)}`;

function turn(id: string, reply: string, participant = 'claude-code'): ChatTurn {
  return { id, sessionId: 'session-1', user: { text: 'Go on.', timestamp: '2026-11-20T09:00:00Z' }, assistant: { text: reply, timestamp: '2026-11-20T09:00:05Z' }, participant };
}

const taskUpdates = (entries: readonly { message: { content: string } }[]): string[] =>
  entries.filter((entry) => entry.message.content.includes('kind="task_update"')).map((entry) => /\n(.*)\n<\/graphiti_episode>/.exec(entry.message.content)?.[1] ?? '');

describe('LoopService through the turn planner', () => {
  it('opens loops from a finished turn, with evidence, and plans one task_update episode each for the workspace group', async () => {
    const services = createPolicyServices();
    const entries = await services.planner.plan(turn('t1', 'Done with the fix.\nTODO: add a migration test\nnext time, check the staging deploy'));
    const workspace = await services.groups.resolve('workspace');
    expect(taskUpdates(entries)).toEqual(['Open loop (Claude Code): add a migration test', 'Open loop (Claude Code): check the staging deploy']);
    expect(entries.filter((entry) => entry.message.content.includes('task_update')).every((entry) => entry.groupId === workspace && entry.message.role_type === 'system')).toBe(true);
    const loops = await services.loopStore.list();
    expect(loops).toHaveLength(2);
    expect(loops[0]).toMatchObject({ groupId: workspace, status: 'open', evidence: { tool: 'Claude Code', sessionId: 'session-1', turnId: 't1', at: '2026-11-20T09:00:05.000Z', marker: 'todo' } });
    // Said again: the same loop, nothing sent again.
    expect(taskUpdates(await services.planner.plan(turn('t2', 'TODO: add a migration test')))).toEqual([]);
    expect((await services.loopStore.list())[0]?.mentions).toBe(2);
  });

  it('closes the loop a later "done:" names and says so to Graphiti', async () => {
    const services = createPolicyServices();
    await services.planner.plan(turn('t1', 'TODO: add a migration test for the retry budget'));
    const entries = await services.planner.plan(turn('t2', 'done: the migration test for the retry budget', 'copilot-agent'));
    expect(taskUpdates(entries)).toEqual(['Loop done (Copilot): add a migration test for the retry budget']);
    expect(await services.loops.nudges()).toMatchObject({ nudged: [], stale: [], expireDays: 30 });
  });

  it('keeps a marker holding a secret out of the store and out of every message', async () => {
    const services = createPolicyServices();
    const entries = await services.planner.plan(turn('t1', `TODO: rotate ${githubToken} before Friday\nTODO: update the docs`));
    expect(taskUpdates(entries)).toEqual(['Open loop (Claude Code): update the docs']);
    expect(JSON.stringify(await services.loopStore.list())).not.toContain(githubToken);
    for (const entry of entries) expect(entry.message.content).not.toContain(githubToken);
  });

  it('captures nothing while the gate is closed', async () => {
    const services = createPolicyServices({ consentFor: null });
    expect(await services.planner.plan(turn('t1', 'TODO: add a migration test'))).toEqual([]);
    expect(await services.loopStore.list()).toEqual([]);
  });

  it('closes or drops a loop by hand by a unique id prefix, and refuses an unknown or closed one', async () => {
    const services = createPolicyServices();
    await services.planner.plan(turn('t1', 'TODO: add a migration test'));
    const [loop] = await services.loopStore.list();
    const closed = await services.loops.close(loop?.id.slice(0, 4) ?? '', 'dropped', 'graphiti-harness');
    expect(closed.ok && taskUpdates(closed.entries)).toEqual(['Loop dropped (graphiti-harness): add a migration test']);
    expect(await services.loops.close(loop?.id ?? '', 'done')).toMatchObject({ ok: false, reason: 'not-open' });
    expect(await services.loops.close('ffffffffffff', 'done')).toMatchObject({ ok: false, reason: 'not-found' });
    expect((await services.loops.list({ all: true }))?.loops.map((known) => known.status)).toEqual(['dropped']);
  });
});
