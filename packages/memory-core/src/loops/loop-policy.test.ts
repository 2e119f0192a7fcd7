import { describe, expect, it } from 'vitest';
import { parseLoopMarkers } from './loop-markers.js';
import { applyLoopMarkers, boundedLoops, describeLoop, loopId, loopNudges, matchOpenLoop, MAX_KEPT_LOOPS } from './loop-policy.js';
import type { OpenLoop } from './open-loop.js';

const GROUP = 'gm_workspace_1';
const at = (day: number): string => new Date(Date.UTC(2026, 10, day, 9)).toISOString();
const evidence = (day: number, tool = 'Claude Code') => ({ tool, sessionId: `s${day}`, turnId: `t${day}`, at: at(day) });

async function opened(text: string, day: number, group = GROUP): Promise<OpenLoop[]> {
  return (await applyLoopMarkers([], parseLoopMarkers(`TODO: ${text}`), group, evidence(day))).loops;
}

describe('applyLoopMarkers', () => {
  it('opens a loop with its evidence, and one said again is the same loop with more mentions', async () => {
    const first = await applyLoopMarkers([], parseLoopMarkers('TODO: add a migration test\nnext: check the deploy'), GROUP, evidence(1));
    expect(first.changes.map((change) => change.change)).toEqual(['opened', 'opened']);
    expect(first.loops[0]).toMatchObject({ text: 'add a migration test', status: 'open', groupId: GROUP, evidence: { tool: 'Claude Code', sessionId: 's1', turnId: 't1', marker: 'todo' }, mentions: 1 });
    expect(first.loops[0]?.id).toBe(await loopId(GROUP, 'Add a migration test!'));
    const again = await applyLoopMarkers(first.loops, parseLoopMarkers('todo: Add a migration test.'), GROUP, evidence(3));
    expect(again.changes.map((change) => change.change)).toEqual(['repeated']);
    expect(again.loops).toHaveLength(2);
    expect(again.loops[0]).toMatchObject({ mentions: 2, createdAt: at(1), updatedAt: at(3) });
  });

  it('closes the open loop a done: line matches, and only that one', async () => {
    const start = await applyLoopMarkers([], parseLoopMarkers('TODO: add a migration test for the retry budget\nnext time, check why the staging deploy is slow'), GROUP, evidence(1));
    const done = await applyLoopMarkers(start.loops, parseLoopMarkers('done: added the migration test for the retry budget'), GROUP, evidence(2, 'Codex'));
    expect(done.changes).toHaveLength(1);
    expect(done.changes[0]?.loop).toMatchObject({ text: 'add a migration test for the retry budget', status: 'done', closed: { tool: 'Codex', marker: 'done' } });
    expect(done.loops.filter((loop) => loop.status === 'open').map((loop) => loop.text)).toEqual(['check why the staging deploy is slow']);
  });

  it('closes nothing when no open loop is close enough, or the loop is in another workspace', async () => {
    const loops = await opened('add a migration test for the retry budget', 1);
    expect((await applyLoopMarkers(loops, parseLoopMarkers('done: the release notes'), GROUP, evidence(2))).changes).toEqual([]);
    expect((await applyLoopMarkers(loops, parseLoopMarkers('done: migration test retry budget'), 'other', evidence(2))).changes).toEqual([]);
    expect(matchOpenLoop(loops, GROUP, 'done')).toBeUndefined();
  });

  it('reopens a closed loop said again', async () => {
    const loops = await opened('bump zod', 1);
    const dropped = await applyLoopMarkers(loops, parseLoopMarkers('task_update (dropped): bump zod'), GROUP, evidence(2));
    expect(dropped.loops[0]?.status).toBe('dropped');
    const reopened = await applyLoopMarkers(dropped.loops, parseLoopMarkers('follow-up: bump zod'), GROUP, evidence(4));
    expect(reopened.changes[0]?.change).toBe('reopened');
    expect(reopened.loops[0]).toMatchObject({ status: 'open', createdAt: at(4) });
    expect(reopened.loops[0]?.closed).toBeUndefined();
  });
});

describe('loopNudges', () => {
  it('names the newest first, a few at most, leaves stale ones out and says how many more', async () => {
    let loops: OpenLoop[] = [];
    for (const [text, day] of [['one', 1], ['two', 20], ['three', 21], ['four', 22], ['five', 23]] as const) loops = [...loops, ...(await opened(`loop ${text}`, day))];
    const now = new Date(at(24));
    const nudges = loopNudges(loops, GROUP, now, { expireDays: 10, max: 3 });
    expect(nudges.nudged.map((loop) => loop.text)).toEqual(['loop five', 'loop four', 'loop three']);
    expect(nudges.more).toBe(1);
    expect(nudges.stale.map((loop) => loop.text)).toEqual(['loop one']);
    expect(describeLoop(nudges.nudged[0] as OpenLoop, now, 10)).toBe('open for 24 hours, Claude Code');
    expect(describeLoop(nudges.stale[0] as OpenLoop, now, 10)).toBe('stale: untouched for 23 days, Claude Code');
  });

  it('puts the more salient of one day first (said more often)', async () => {
    const first = await applyLoopMarkers([], parseLoopMarkers('next: quiet one\nnext: loud one'), GROUP, evidence(5));
    const loops = (await applyLoopMarkers(first.loops, parseLoopMarkers('next: loud one'), GROUP, { ...evidence(5), at: at(5) })).loops;
    expect(loopNudges(loops, GROUP, new Date(at(5)), { expireDays: 30 }).nudged.map((loop) => loop.text)).toEqual(['loud one', 'quiet one']);
  });
});

describe('boundedLoops', () => {
  it('keeps at most MAX_KEPT_LOOPS, letting closed loops go first', async () => {
    const base = (await opened('x', 1))[0] as OpenLoop;
    const loops: OpenLoop[] = Array.from({ length: MAX_KEPT_LOOPS + 5 }, (_, index) => ({ ...base, id: `id${index}`, status: index < 10 ? 'done' : 'open', updatedAt: at(2) }));
    const kept = boundedLoops(loops, new Date(at(3)));
    expect(kept).toHaveLength(MAX_KEPT_LOOPS);
    expect(kept.filter((loop) => loop.status === 'done')).toHaveLength(5);
  });
});
