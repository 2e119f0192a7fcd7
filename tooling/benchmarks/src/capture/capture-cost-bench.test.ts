// The cost goals of session digests, asserted on the corpus: with the defaults, at most one
// episode per group for a session of up to 10 turns and at most 0.65 of the text per group;
// today's per-turn full mode, measured in the same run, is what they are compared with.
import { describe, expect, it } from 'vitest';
import { CAPTURE_CORPUS, DEFAULT_CAPTURE_MODE, measureCaptureCosts, PER_TURN_FULL_MODE } from './capture-cost-bench.js';

describe('capture cost on the corpus', { timeout: 120_000 }, () => {
  it('the defaults send at most one episode per group per short session and at most 0.65 of the text per group', async () => {
    const [defaults, today] = await measureCaptureCosts(CAPTURE_CORPUS, [DEFAULT_CAPTURE_MODE, PER_TURN_FULL_MODE]);
    if (defaults === undefined || today === undefined) throw new Error('both modes are measured');
    for (const cost of defaults.sessions) {
      expect(cost.turns, cost.session).toBeLessThanOrEqual(10);
      expect(cost.episodesPerGroup, cost.session).toBe(1);
    }
    expect(defaults.textPerGroup).toBeLessThanOrEqual(0.65);
    // Today's mode: two episodes per turn per group, the whole text.
    for (const cost of today.sessions) expect(cost.episodesPerGroup, cost.session).toBe(cost.turns * 2);
    expect(today.episodesPerTurn).toBeGreaterThan(defaults.episodesPerTurn * 5);
  });

  it('reads every corpus session in its real format, with Claude Code tool output in the full transcript', async () => {
    const [full] = await measureCaptureCosts(CAPTURE_CORPUS, [PER_TURN_FULL_MODE]);
    expect(full?.sessions.map((cost) => [cost.session, cost.turns])).toEqual([
      ['claude-code/retry-bug (4 turns)', 4],
      ['claude-code/dead-letters (10 turns)', 10],
      ['claude-code/naming (3 turns)', 3],
      ['vscode-chat/settings (6 turns)', 6],
      ['vscode-chat/review (3 turns)', 3],
    ]);
  });
});
