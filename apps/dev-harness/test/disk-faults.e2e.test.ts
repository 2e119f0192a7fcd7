// Issue 20's full and read-only disks, with real processes and a real small file system: the state
// folder (GRAPHITI_MEMORY_STATE_DIR) on a tmpfs that the test fills, frees and remounts read-only,
// Stop hooks through one warm hook server (the BUILT dist/hook-runner.cjs), the drainer it starts,
// and the emulator over HTTP. What was queued is delivered once space returns, each message exactly
// once, and the fault is named (code, path, what to do) in `hooks status` and in hook.log.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { sharedStateFiles } from '@graphiti-memory/memory-node-storage';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hookServerStatus, type HookServerStatus } from '@graphiti-memory/agent-hooks';
import { hookRunnerFile } from '@graphiti-memory/agent-hooks/runner-files';
import { claudeTranscriptLine, harnessSucceeds, loggedRuns, runNode, waitFor, waitForValue, type ProcessRun } from './hook-processes.js';
import { capturePerMessage, endHookTest, ensureBuiltRunner, startHookTest, type HookTest } from './hook-server-fixture.js';
import { SmallDisk, smallDiskUnavailable } from './small-disk.js';

const runner = hookRunnerFile();
const unavailable = smallDiskUnavailable();
if (unavailable !== undefined) console.warn(`disk-faults.e2e: skipped: ${unavailable}`);

let test: HookTest;
let emulator: RunningEmulator;
let disk: SmallDisk;
let env: NodeJS.ProcessEnv;
let transcript: string;
let build: string;

const claudeLine = (type: 'user' | 'assistant', uuid: string, text: string, second: number): string => claudeTranscriptLine(type, uuid, text, { cwd: test.workspace, second });

/** Appends finished turns `from`..`to` (1-based) to the transcript. */
async function addTurns(from: number, to: number): Promise<void> {
  const lines: string[] = [];
  for (let turn = from; turn <= to; turn++) {
    lines.push(claudeLine('user', `u-${turn}`, `Question ${turn}: which service owns billing step ${turn}?`, turn * 4));
    lines.push(claudeLine('assistant', `a-${turn}`, `Answer ${turn}: the billing service owns step ${turn}.`, turn * 4 + 2));
  }
  await fs.appendFile(transcript, `${lines.join('\n')}\n`);
}

function hook(event: string, fields: Record<string, unknown> = {}): Promise<ProcessRun> {
  const input = { session_id: 'claude-session-1', transcript_path: transcript, cwd: test.workspace, hook_event_name: event, ...fields };
  return runNode(test, [runner, '--event', event], JSON.stringify(input), { env });
}

const harness = (args: readonly string[]): Promise<ProcessRun> => harnessSucceeds({ env, workspace: test.workspace }, args);

/** The warm hook server of the built runner, once it answers. */
function serverUp(): Promise<HookServerStatus & { running: true }> {
  return waitForValue(async () => {
    const status = await hookServerStatus(env, build);
    return status.running ? status : undefined;
  }, 'the hook server');
}

/** `group\nname` of every message the emulator accepted (202), and how often. */
function postsPerMessage(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const request of emulator.requests) {
    if (request.route !== 'messages' || request.status !== 202) continue;
    const body = request.body as { group_id: string; messages: Array<{ name: string }> };
    for (const message of body.messages) counts.set(`${body.group_id}\n${message.name}`, (counts.get(`${body.group_id}\n${message.name}`) ?? 0) + 1);
  }
  return counts;
}

/** Waits until `count` distinct messages are stored by the emulator, then a little longer for any late duplicate. */
async function deliveredExactlyOnce(count: number): Promise<void> {
  await waitFor(() => postsPerMessage().size >= count, `${count} distinct messages posted`, 40_000);
  await emulator.idle();
  await waitFor(async () => !(await drainerRunning()), 'the drainer to leave', 40_000);
  const posts = postsPerMessage();
  expect(posts.size).toBe(count);
  expect([...posts.values()].every((times) => times === 1), JSON.stringify([...posts.entries()].filter(([, times]) => times > 1))).toBe(true);
  const stored = emulator.state.episodes().map((episode) => `${episode.group_id}\n${episode.name}`);
  expect(stored).toHaveLength(count);
  expect(new Set(stored).size).toBe(count);
}

async function drainerRunning(): Promise<boolean> {
  return fs
    .access(sharedStateFiles(test.stateDir).drainerInfo)
    .then(() => true)
    .catch(() => false);
}

beforeAll(async () => {
  build = await ensureBuiltRunner();
}, 300_000);

beforeEach(async () => {
  if (unavailable !== undefined) return;
  test = await startHookTest('disk-faults-');
  emulator = test.emulator;
  env = { ...test.env, GRAPHITI_MEMORY_STATE_DIR: test.stateDir };
  disk = await SmallDisk.mount(test.stateDir, '2m');
  transcript = path.join(test.root, 'claude.jsonl');
  await fs.writeFile(transcript, '');
  // The runner runs where it was built (--runner): the small disk holds state, not a runner copy.
  await harness(['hooks', 'install', '--target', 'claude', '--endpoint', emulator.url, '--runner', runner]);
  // Per-message capture: each message's fate is followed (digests have their own e2e).
  await capturePerMessage(test);
});

afterEach(async () => {
  if (unavailable !== undefined) return;
  await disk.writable().catch(() => undefined);
  await disk.free();
  // The servers and drainers go first: they hold files on the small disk.
  await endHookTest({ ...test, root: path.join(test.root, 'kept-until-unmounted') });
  await waitFor(async () => !(await drainerRunning()), 'the drainer to leave', 20_000).catch(() => undefined);
  disk.unmount();
  await fs.rm(test.root, { recursive: true, force: true });
});

describe.skipIf(unavailable !== undefined)('a full disk under the state folder', () => {
  it('a Stop on a full disk fails open and names ENOSPC; once space returns the same warm server queues it and each message is delivered exactly once', async () => {
    await addTurns(1, 1);
    expect(await hook('Stop', { stop_hook_active: false })).toMatchObject({ exitCode: 0, stdout: '' });
    const server = await serverUp();
    await deliveredExactlyOnce(4);

    await addTurns(2, 4);
    await disk.fill();
    const full = await hook('Stop', { stop_hook_active: false });
    // Fail open: the agent's hook succeeds, prints nothing, and keeps its deadline.
    expect(full).toMatchObject({ exitCode: 0, stdout: '' });
    expect(full.elapsedMs).toBeLessThan(12_000);
    // The warm server names the fault: code, the file, what to do.
    const status = await harness(['hooks', 'status']);
    expect(status.stdout).toMatch(/ENOSPC writing .*outbox.*: the disk is full; free space/);
    const statusJson = JSON.parse((await harness(['hooks', 'status', '--json'])).stdout) as { server: { storageFault?: { code: string; path: string } } };
    expect(statusJson.server.storageFault).toMatchObject({ code: 'ENOSPC' });
    expect(statusJson.server.storageFault?.path.startsWith(test.stateDir)).toBe(true);

    await disk.free();
    // The same warm server takes the next Stop: the turns the full disk refused are queued now.
    expect(await hook('Stop', { stop_hook_active: false })).toMatchObject({ exitCode: 0, stdout: '' });
    expect((await serverUp()).pid).toBe(server.pid);
    await deliveredExactlyOnce(16);
    // The fault reached hook.log once the disk could take it (a line naming the code and the file).
    const log = await fs.readFile(path.join(test.stateDir, 'hooks', 'hook.log'), 'utf8');
    expect(log).toMatch(/Stop failed ENOSPC writing \S+: the disk is full; free space/);
    expect((await loggedRuns(test.stateDir)).filter((run) => run.event === 'Stop').map((run) => run.outcome)).toEqual(['queued', 'failed', 'queued']);
  });

  it('full, freed, then read-only, then writable again: nothing delivered is posted again, and every turn arrives once', async () => {
    // The first event runs in the runner's own process and starts the warm server.
    expect(await hook('UserPromptSubmit', { prompt: 'Which service owns billing?' })).toMatchObject({ exitCode: 0 });
    const server = await serverUp();
    await addTurns(1, 3);
    await disk.fill();
    expect(await hook('Stop', { stop_hook_active: false })).toMatchObject({ exitCode: 0, stdout: '' });
    expect((await serverUp()).pid).toBe(server.pid);
    await disk.free();
    expect(await hook('Stop', { stop_hook_active: false })).toMatchObject({ exitCode: 0, stdout: '' });
    await deliveredExactlyOnce(12);

    await addTurns(4, 4);
    await disk.readOnly();
    const readOnly = await hook('Stop', { stop_hook_active: false });
    expect(readOnly).toMatchObject({ exitCode: 0, stdout: '' });
    const status = await harness(['hooks', 'status']);
    expect(status.stdout).toMatch(/EROFS writing \S+: the file system is read-only/);
    // Nothing was re-posted while the disk was read-only.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(postsPerMessage().size).toBe(12);

    await disk.writable();
    expect(await hook('Stop', { stop_hook_active: false })).toMatchObject({ exitCode: 0, stdout: '' });
    await deliveredExactlyOnce(16);
  });
});
