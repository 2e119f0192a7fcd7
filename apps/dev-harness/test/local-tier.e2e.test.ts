// The local tier across tools, with real processes: `graphiti-harness promote` and `forget` (the
// built CLI) and the BUILT hook runner, against the emulator over HTTP, then with Graphiti stopped.
// A promote shows in the next brief before any recall refreshed the cache; a cold tier asks
// Graphiti; a forget leaves nothing in the brief or the cached recall; the brief lists a promoted
// decision once.
import path from 'node:path';
import { type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runNode, type ProcessRun, hookTestTools, printedContext } from './hook-processes.js';
import { endHookTest, ensureBuilt, harnessBinary, startHookTest, type HookTest } from './hook-server-fixture.js';


let test: HookTest;
let emulator: RunningEmulator;
let root: string;
let workspace: string;

let tools: ReturnType<typeof hookTestTools>;
const harness = (...args: string[]): Promise<ProcessRun> => tools.harness(...args);
const hook = (event: string, session: string, fields: Record<string, unknown> = {}): Promise<ProcessRun> => tools.hook(event, session, fields);
const printed = printedContext;

beforeAll(() => ensureBuilt(), 300_000);

beforeEach(async () => {
  test = await startHookTest('local-tier-');
  ({ emulator, root, workspace } = test);
  tools = hookTestTools(test);
  await harness('hooks', 'install', '--target', 'claude');
});

afterEach(() => endHookTest(test));

describe('the local tier across tools', { timeout: 120_000 }, () => {
  it('shows a decision promoted with the CLI in the next brief, with Graphiti stopped before any recall', async () => {
    await harness('promote', 'Releases are cut from the main branch only.', '--kind', 'decision', '--scope', 'workspace');
    await emulator.close();
    const brief = printed(await hook('SessionStart', 'session-1', { source: 'startup' }));
    expect(brief).toContain('[workspace decision] Releases are cut from the main branch only.');
  });

  it('lists the decision once, and after a CLI forget prints nothing of it in the brief or the cached recall', async () => {
    await harness('promote', 'Releases are cut from the main branch only.', '--kind', 'decision', '--scope', 'workspace');
    // Promoted from another state folder (another machine's tool): only Graphiti knows it.
    const elsewhere = await runNode(test, [harnessBinary, 'promote', 'Answer in British English.', '--kind', 'preference', '--scope', 'workspace', '--endpoint', emulator.url, '--state-dir', path.join(root, 'other-state'), '--workspace', workspace]);
    expect(elsewhere.exitCode, elsewhere.stderr).toBe(0);
    await emulator.idle();
    // A recall brings the fact Graphiti extracted from the decision into the tier; a brief lists the decision once.
    expect(printed(await hook('UserPromptSubmit', 'session-1', { prompt: 'Which branch are releases cut from?' }))).toContain('main branch');
    const brief = printed(await hook('SessionStart', 'session-2', { source: 'startup' }));
    expect(brief).toContain('[workspace decision] Releases are cut from the main branch only.');
    expect(brief.match(/main branch/g)).toHaveLength(1);
    // The tier had only what this machine did (a promote, a recall): cold, so SessionStart asked Graphiti.
    expect(brief).toContain('[workspace preference] Answer in British English.');

    await harness('forget', '--scope', 'workspace', '--yes');
    await emulator.close();
    expect(printed(await hook('SessionStart', 'session-3', { source: 'startup' }))).toBe('');
    expect(printed(await hook('UserPromptSubmit', 'session-3', { prompt: 'Which branch are releases cut from?' }))).toBe('');
  });
});
