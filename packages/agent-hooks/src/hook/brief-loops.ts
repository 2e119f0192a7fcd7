// The open loops SessionStart's brief names: memory-core's policy (`loopNudges`: this workspace's
// open loops, newest and most salient first, a few at most, none untouched for `loops.expireDays`)
// over the state folder's loop store, each with its age and source. A resumed session is not told
// a loop again (say-it-once). Local only: read even when Graphiti is down; fail open.
import { describeLoop, loopNudges, saidTextHash, type LoopStore, type SaidInSession } from '@graphiti-memory/memory-core';
import { loopSaidKey, type BriefLoop } from './brief-lines.js';

export interface BriefLoopsSource {
  readonly loopStore: Pick<LoopStore, 'list'>;
  readonly groups: { resolve(scope: 'workspace'): Promise<string | undefined> };
}

/** The loops to name (`[]` when none, or when the store cannot be read). */
export async function briefLoops(memory: BriefLoopsSource, expireDays: number, said: SaidInSession, now: Date): Promise<BriefLoop[]> {
  try {
    const groupId = await memory.groups.resolve('workspace');
    if (groupId === undefined) return [];
    const saidTexts = new Set(said.texts);
    const { nudged } = loopNudges(await memory.loopStore.list(), groupId, now, { expireDays });
    const loops: BriefLoop[] = [];
    for (const loop of nudged) {
      if (saidTexts.has(await saidTextHash(loopSaidKey(loop)))) continue;
      loops.push({ id: loop.id, text: loop.text, description: describeLoop(loop, now, expireDays) });
    }
    return loops;
  } catch {
    return [];
  }
}
