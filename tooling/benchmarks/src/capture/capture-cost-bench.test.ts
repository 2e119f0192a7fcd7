// The cost goals of session digests, asserted on the corpus: with the defaults, at most one
// episode per group for a session of up to 10 turns and at most 0.65 of the text per group;
// today's per-turn full mode, measured in the same run, is what they are compared with.
import { describe, expect, it } from 'vitest';
import { CAPTURE_CORPUS, DEFAULT_CAPTURE_MODE, measureCaptureCosts, PER_TURN_FULL_MODE, textPerGroup, worstSession } from './capture-cost-bench.js';

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
      ['vscode-chat/rate-limit (6 turns)', 6],
    ]);
  });

  it('the default sends one line per code block of a VS Code agent chat, and full keeps the code', async () => {
    const agent = CAPTURE_CORPUS.filter((session) => session.name.startsWith('vscode-chat/rate-limit'));
    const [compact, full] = await measureCaptureCosts(agent, [DEFAULT_CAPTURE_MODE, { granularity: 'session', preset: 'full' }]);
    const [compactCost] = compact?.sessions ?? [];
    const [fullCost] = full?.sessions ?? [];
    if (compactCost === undefined || fullCost === undefined) throw new Error('the agent session is measured in both modes');
    // Code is most of this chat: its digest sends well under half of it; with full, all of it.
    expect(textPerGroup(compactCost)).toBeLessThan(0.5);
    expect(textPerGroup(fullCost)).toBeGreaterThanOrEqual(1);
  });

  it('names the worst short session by its own figure', () => {
    const cost = (session: string, charactersPerGroup: number): Parameters<typeof textPerGroup>[0] => ({ session, turns: 3, episodes: 2, episodesPerGroup: 1, charactersPerGroup, transcriptCharacters: 1000 });
    expect(worstSession([cost('a', 100), cost('b', 900), cost('c', 400)])).toEqual({ session: 'b', figure: 0.9 });
    expect(() => worstSession([])).toThrow(/no session of up to 10 turns/);
  });
});
