// Issue 21's proof, with real processes: two people (two HOMEs, two state folders, two user keys)
// in clones of one repository (two spellings of its remote) against one emulator. Alice's captured
// chat never reaches Bob's recall or brief; the decision Alice shares with the team does, with her
// name; Alice still recalls her own chat; Bob's forget of the team scope leaves Alice's decision.
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { stopHookProcesses } from '@graphiti-memory/agent-hooks';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { claudeTranscriptLine, generousRecallDeadline, hookTestTools, loggedRuns, messagesSent, printedContext, waitFor } from './hook-processes.js';
import { capturePerMessage, ensureBuilt, stopHookServer, temporaryHookHome, type HookTest } from './hook-server-fixture.js';

const git = promisify(execFile);

let emulator: RunningEmulator;
let alice: HookTest;
let bob: HookTest;

async function person(prefix: string, remote: string): Promise<HookTest> {
  const home = await temporaryHookHome(prefix);
  await git('git', ['init', '-q', home.workspace]);
  await git('git', ['-C', home.workspace, 'remote', 'add', 'origin', remote]);
  return { ...home, emulator };
}

const teamEpisodes = () => emulator.state.episodes().filter((episode) => episode.group_id.startsWith('gm_team_'));

beforeAll(() => ensureBuilt(), 300_000);

beforeEach(async () => {
  emulator = await startEmulator({ processingDelayMs: 1 });
  alice = await person('team-alice-', 'git@github.com:acme/app.git');
  bob = await person('team-bob-', 'https://bob@GitHub.com/Acme/App.git');
});

afterEach(async () => {
  for (const test of [alice, bob]) await stopHookServer(test.env);
  // A drainer may stay for an open session digest: ask it to leave before the folders go.
  for (const test of [alice, bob]) await stopHookProcesses(test.env, test.stateDir, 2_000);
  await emulator.close();
  await new Promise((resolve) => setTimeout(resolve, 200));
  for (const test of [alice, bob]) await fs.rm(test.root, { recursive: true, force: true });
});

describe('a team on one Graphiti', () => {
  it("keeps Alice's chat private, shares her team decision with Bob, and Bob's team forget leaves it", async () => {
    const a = hookTestTools(alice);
    const b = hookTestTools(bob);
    // Alice even lists team among her capture scopes: captured chat still never goes there.
    await a.harness('hooks', 'install', '--target', 'claude', '--scopes', 'session,workspace,team');
    await b.harness('hooks', 'install', '--target', 'claude');
    // This is about who sees what: a busy machine must not empty a recall by its deadline.
    for (const test of [alice, bob]) await generousRecallDeadline(test.env);
    const consent = await a.harness('team', 'enable', '--yes-share-with-team', '--display-name', 'Alice', '--json');
    expect(JSON.parse(consent.stdout)).toMatchObject({ consent: true, audience: 'anyone who uses this Graphiti server with this repository' });
    await b.harness('team', 'enable', '--yes-share-with-team');
    // Per-message capture: the test follows Alice's one turn to her groups (digests have their own e2e).
    await capturePerMessage(alice);

    // Alice's chat, captured by the Stop hook from her Claude Code transcript.
    const transcript = path.join(alice.root, 'alice-chat.jsonl');
    await fs.writeFile(
      transcript,
      [
        claudeTranscriptLine('user', 'u-1', 'Keep this between us: I am interviewing elsewhere next month.', { cwd: alice.workspace, sessionId: 'alice-chat', second: 0 }),
        claudeTranscriptLine('assistant', 'a-1', 'Understood, interviewing elsewhere stays private.', { cwd: alice.workspace, sessionId: 'alice-chat', second: 2 }),
      ].join('\n') + '\n',
    );
    expect(printedContext(await a.hook('Stop', 'alice-chat', { stop_hook_active: false }))).toBe('');
    await waitFor(async () => (await loggedRuns(alice.stateDir)).some((run) => run.event === 'drain' && run.outcome === 'delivered'), "Alice's chat delivered", 30_000);

    // Alice shares a decision with the team.
    const promoted = await a.harness('promote', 'The billing API deploys with Fly.io.', '--kind', 'decision', '--scope', 'team', '--json');
    const teamGroup = (JSON.parse(promoted.stdout) as { groupId: string }).groupId;
    expect(teamGroup).toMatch(/^gm_team_[0-9a-f]{32}$/);
    await emulator.idle();

    // The audit log records the team write like any other, marked as shared.
    const audit = (await a.harness('audit')).stdout;
    expect(audit).toMatch(new RegExp(`group ${teamGroup}  1 promotions, \\d+ bytes  \\[team: shared\\]`));

    // Only the promoted decision is in the team group; the chat went to Alice's own groups only.
    expect(teamEpisodes().map((episode) => episode.content)).toEqual([expect.stringContaining('The billing API deploys with Fly.io.')]);
    const chatGroups = new Set(messagesSent(emulator).filter((message) => message.content.includes('interviewing')).map((message) => message.group));
    expect(chatGroups.size).toBeGreaterThan(0);
    for (const group of chatGroups) expect(group).not.toMatch(/^gm_team_/);

    // Bob: the team decision with Alice's name, never Alice's chat, in recall and in the brief.
    const bobContext = printedContext(await b.hook('UserPromptSubmit', 'bob-1', { prompt: 'How does the billing API deploy? Is anyone interviewing elsewhere?' }));
    expect(bobContext).toContain('[team · Alice (unverified)] The billing API deploys with Fly.io');
    expect(bobContext).not.toContain('interviewing');
    const bobBrief = printedContext(await b.hook('SessionStart', 'bob-2', { source: 'startup' }));
    expect(bobBrief).toContain('[team · Alice (unverified) decision] The billing API deploys with Fly.io.');
    expect(bobBrief).not.toContain('interviewing');
    const bobRecall = JSON.parse((await b.harness('recall', 'interviewing elsewhere next month billing API', '--scopes', 'all', '--json')).stdout) as { facts: Array<{ fact: string; scope: string }> };
    expect(bobRecall.facts.map((fact) => fact.fact).join('\n')).not.toContain('interviewing');

    // Alice still recalls her own chat.
    const aliceContext = printedContext(await a.hook('UserPromptSubmit', 'alice-2', { prompt: 'Am I interviewing elsewhere next month?' }));
    expect(aliceContext).toContain('interviewing elsewhere');

    // Bob shares one of his own, then forgets his part of the team scope: Alice's decision stays.
    await b.harness('promote', 'Bob reviews every database migration.', '--kind', 'procedure', '--scope', 'team');
    await emulator.idle();
    expect(teamEpisodes()).toHaveLength(2);
    const forgot = JSON.parse((await b.harness('forget', '--scope', 'team', '--yes', '--json')).stdout) as Record<string, unknown>;
    expect(forgot).toMatchObject({ ok: true, deletedEpisodes: 1, failed: [] });
    expect(teamEpisodes().map((episode) => episode.content)).toEqual([expect.stringContaining('The billing API deploys with Fly.io.')]);
    const afterForget = printedContext(await b.hook('UserPromptSubmit', 'bob-3', { prompt: 'How does the billing API deploy?' }));
    expect(afterForget).toContain('The billing API deploys with Fly.io');

    // The team group shows who wrote what.
    const listed = JSON.parse((await b.harness('episodes', '--scope', 'team', '--json')).stdout) as { groupId: string; episodes: Array<{ author: string | null }> };
    expect(listed.groupId).toBe(teamGroup);
    expect(listed.episodes.map((episode) => episode.author)).toEqual(['Alice']);
  }, 180_000);

  it('refuses a team promotion without the team consent, naming who could read it', async () => {
    const a = hookTestTools(alice);
    const refused = await (async () => {
      try {
        await a.harness('promote', 'Use zod.', '--kind', 'decision', '--scope', 'team');
        return undefined;
      } catch (error) {
        return error as Error;
      }
    })();
    expect(refused?.message).toContain('anyone who uses this Graphiti server with this repository');
    expect(teamEpisodes()).toEqual([]);
  }, 60_000);
});
