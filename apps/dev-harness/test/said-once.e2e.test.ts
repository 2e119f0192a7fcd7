// Say it once, with real processes: `graphiti-harness promote` (the built CLI) and the BUILT hook
// runner as Claude Code runs it, against the emulator over HTTP. A session's SessionStart brief
// gives a decision; that session's recall does not repeat it (though it searched and found it);
// a fact the recall gave is not given again unless Graphiti changed it; a new session gets it all.
import type { RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hookTestTools, loggedRuns, printedContext, type ProcessRun } from './hook-processes.js';
import { endHookTest, ensureBuilt, startHookTest, type HookTest } from './hook-server-fixture.js';

const DECISION = 'Releases are cut from the main branch only.';
const LESSON = 'The staging database resets every night at midnight.';
const BRANCH_QUESTION = 'Which branch are releases cut from?';
const STAGING_QUESTION = 'When does the staging database reset?';

let test: HookTest;
let emulator: RunningEmulator;
let tools: ReturnType<typeof hookTestTools>;
const hook = (event: string, session: string, fields: Record<string, unknown> = {}): Promise<ProcessRun> => tools.hook(event, session, fields);
const prompt = async (session: string, text: string): Promise<string> => printedContext(await hook('UserPromptSubmit', session, { prompt: text }));
const searches = (): number => emulator.requests.filter((request) => request.route === 'search').length;
const lastOutcome = async (): Promise<string | undefined> => (await loggedRuns(test.stateDir)).at(-1)?.outcome;

beforeAll(() => ensureBuilt(), 300_000);

beforeEach(async () => {
  test = await startHookTest('said-once-');
  ({ emulator } = test);
  tools = hookTestTools(test);
  await tools.harness('hooks', 'install', '--target', 'claude');
  await tools.harness('promote', DECISION, '--kind', 'decision', '--scope', 'workspace');
  // A lesson is not in the brief: only recall gives it.
  await tools.harness('promote', LESSON, '--kind', 'lesson_learned', '--scope', 'workspace');
  await emulator.idle();
});

afterEach(() => endHookTest(test));

describe('say it once (real hook processes)', () => {
  it("does not repeat the brief's decision in the session's recall, nor a recalled fact, unless it changed; a new session gets both", async () => {
    const brief = printedContext(await hook('SessionStart', 'session-1', { source: 'startup' }));
    expect(brief).toContain(`[workspace decision] ${DECISION}`);
    expect(brief).not.toContain('staging database');

    // The recall searched Graphiti and found the decision's fact, but the brief already gave it.
    const before = searches();
    expect(await prompt('session-1', BRANCH_QUESTION)).toBe('');
    expect(searches()).toBeGreaterThan(before);
    expect(await lastOutcome()).toBe('said-before');

    const lesson = await prompt('session-1', STAGING_QUESTION);
    expect(lesson).toContain('staging database resets every night at midnight');
    expect(await prompt('session-1', STAGING_QUESTION)).toBe('');

    // Graphiti rewrites the lesson's fact (same edge, new text): the change is news.
    const stored = emulator.state.facts().find((fact) => fact.fact.includes('staging database resets'));
    expect(stored).toBeDefined();
    if (stored !== undefined) stored.fact = 'The staging database resets every night at two in the morning';
    const changed = await prompt('session-1', STAGING_QUESTION);
    expect(changed).toContain('two in the morning');
    expect(changed).not.toContain(DECISION.replace(/\.$/, ''));

    // A new session: its brief gives the decision again and, now that recall cached it in the local
    // tier, the lesson as it reads now; so that session's recall repeats neither.
    const secondBrief = printedContext(await hook('SessionStart', 'session-2', { source: 'startup' }));
    expect(secondBrief).toContain(DECISION);
    expect(secondBrief).toContain('two in the morning');
    expect(secondBrief).not.toContain('midnight');
    expect(await prompt('session-2', STAGING_QUESTION)).toBe('');
    expect(await prompt('session-2', BRANCH_QUESTION)).toBe('');
    // A session whose SessionStart never ran (no brief) hears the decision from recall.
    expect(await prompt('session-3', BRANCH_QUESTION)).toContain('main branch');
  });

  it('a compacted conversation hears the memory again in its new brief, and its recall does not repeat it', async () => {
    await hook('SessionStart', 'session-1', { source: 'startup' });
    expect(await prompt('session-1', STAGING_QUESTION)).toContain('midnight');
    // After compaction what was injected is gone from the context: the new brief gives it again.
    const compacted = printedContext(await hook('SessionStart', 'session-1', { source: 'compact' }));
    expect(compacted).toContain(DECISION);
    expect(compacted).toContain('midnight');
    expect(await prompt('session-1', STAGING_QUESTION)).toBe('');
    expect(await prompt('session-1', BRANCH_QUESTION)).toBe('');
  });
});
