// The brief is recall, and the tier is memory's, with real processes: the built CLI and the BUILT
// hook runner against the emulator over HTTP (not Graphiti), then with the emulator stopped.
// `forget --episode` leaves nothing of that source in the next brief, Graphiti up or down; a
// promoted decision naming a file that is gone carries the stale mark and a citation; the brief's
// refresh reads only the scopes `recall.scopes` allows; `graphiti-harness recall` answers from the
// tier, labelled as cached, when Graphiti is down.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { GraphitiClient } from '@graphiti-memory/graphiti-client';
import { type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { readConfigFile, updateConfigFile, userConfigPath } from '@graphiti-memory/memory-node-storage';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hookTestTools, printedContext, type ProcessRun } from './hook-processes.js';
import { endHookTest, ensureBuilt, startHookTest, type HookTest } from './hook-server-fixture.js';

let test: HookTest;
let emulator: RunningEmulator;
let tools: ReturnType<typeof hookTestTools>;
const harness = (...args: string[]): Promise<ProcessRun> => tools.harness(...args);
const hook = (event: string, session: string, fields: Record<string, unknown> = {}): Promise<ProcessRun> => tools.hook(event, session, fields);

beforeAll(() => ensureBuilt(), 300_000);

beforeEach(async () => {
  test = await startHookTest('brief-recall-');
  ({ emulator } = test);
  tools = hookTestTools(test);
  await harness('hooks', 'install', '--target', 'claude');
  // A busy machine must not turn the brief's cold read into a missed deadline.
  const file = userConfigPath(test.env);
  const current = await readConfigFile(file);
  await updateConfigFile(file, { recall: { ...(current.ok ? current.values.recall : {}), timeoutMs: 5_000 } });
});

afterEach(() => endHookTest(test));

/** Promotes with the CLI and returns the group and episode name it was sent under. */
async function promote(text: string, kind = 'decision'): Promise<{ groupId: string; name: string }> {
  const run = await harness('promote', text, '--kind', kind, '--scope', 'workspace', '--json');
  return JSON.parse(run.stdout) as { groupId: string; name: string };
}

describe('the brief after forget --episode', { timeout: 180_000 }, () => {
  it('shows nothing of the forgotten source in the next brief, with Graphiti up and with Graphiti down', async () => {
    const kept = await promote('Releases are cut from the main branch only.');
    const forgotten = await promote('Deploys go out on Thursdays after the standup.');
    await emulator.idle();
    // The tier is read from Graphiti (cold), so it holds both with their episodes.
    const first = printedContext(await hook('SessionStart', 'session-1', { source: 'startup' }));
    expect(first).toContain('Deploys go out on Thursdays');
    const client = new GraphitiClient({ baseUrl: emulator.url, maxRetries: 0 });
    const episode = (await client.getEpisodes(forgotten.groupId, { lastN: 20 })).find((candidate) => candidate.name === forgotten.name);
    await client.close();
    expect(episode, 'the promotion reached Graphiti').toBeDefined();

    await harness('forget', '--episode', episode?.uuid ?? '', '--yes');
    const up = printedContext(await hook('SessionStart', 'session-2', { source: 'startup' }));
    expect(up).not.toContain('Thursdays');
    expect(up).toContain('Releases are cut from the main branch only.');
    await emulator.close();
    const down = printedContext(await hook('SessionStart', 'session-3', { source: 'startup' }));
    expect(down).not.toContain('Thursdays');
    expect(down).toContain('Releases are cut from the main branch only.');
    expect(kept.groupId).toBe(forgotten.groupId);
  });
});

describe('brief lines are checked like recall lines', { timeout: 180_000 }, () => {
  it('marks a promoted decision about a deleted file as possibly stale, and cites it', async () => {
    await fs.mkdir(path.join(test.workspace, 'docs'), { recursive: true });
    await fs.writeFile(path.join(test.workspace, 'docs', 'release-checklist.md'), '# Release checklist\n');
    await promote('The release checklist lives in docs/release-checklist.md and is read before tagging.');
    await emulator.idle();
    // The decision's file is deleted afterwards: memory still says it is there.
    await fs.rm(path.join(test.workspace, 'docs', 'release-checklist.md'));
    const brief = printedContext(await hook('SessionStart', 'session-1', { source: 'startup' }));
    expect(brief).toContain('[workspace decision] The release checklist lives in docs/release-checklist.md');
    expect(brief).toContain('(may be stale: docs/release-checklist.md is gone)');
    // Cited: the tool and the day (the episode's source once confirmed, else who promoted it here).
    expect(brief).toMatch(/docs\/release-checklist\.md is gone\) \(graphiti-harness, \d{4}-\d{2}-\d{2}\)/);
  });
});

describe("the brief's refresh follows recall.scopes", { timeout: 180_000 }, () => {
  it('with recall.scopes leaving out the user scope, sends no search and no episode listing for any group but the workspace', async () => {
    const file = userConfigPath(test.env);
    const current = await readConfigFile(file);
    await updateConfigFile(file, { recall: { ...(current.ok ? current.values.recall : {}), scopes: ['session', 'workspace'] } });
    const { groupId } = await promote('Releases are cut from the main branch only.');
    await emulator.idle();
    const before = emulator.requests.length;
    expect(printedContext(await hook('SessionStart', 'session-1', { source: 'startup' }))).toContain('main branch');
    const reads = emulator.requests.slice(before).filter((request) => request.route === 'search' || request.path.startsWith('/episodes/'));
    expect(reads.length).toBeGreaterThan(0);
    const groupsRead = reads.map((request) =>
      request.route === 'search' ? ((request.body as { group_ids?: string[] }).group_ids ?? []).join(',') : decodeURIComponent(request.path.slice('/episodes/'.length)),
    );
    expect(new Set(groupsRead)).toEqual(new Set([groupId]));
  });
});

describe('graphiti-harness recall with Graphiti down', { timeout: 180_000 }, () => {
  it('answers from the local tier, labelled as cached with its age', async () => {
    await promote('Releases are cut from the main branch only.');
    await emulator.close();
    const run = await harness('recall', 'Which branch are releases cut from?', '--json', '--timeout-ms', '2000');
    const result = JSON.parse(run.stdout) as { ok: boolean; facts: Array<{ fact: string }>; cached: { at: string; label: string } | null };
    expect(result.facts.map((fact) => fact.fact)).toContain('Releases are cut from the main branch only.');
    expect(result.cached?.label).toMatch(/^cached .+ ago — Graphiti did not answer$/);
    const text = await harness('recall', 'Which branch are releases cut from?', '--timeout-ms', '2000');
    expect(text.stderr + text.stdout).toMatch(/from the local memory cache \(cached .+ ago — Graphiti did not answer\)/);
  });
});
