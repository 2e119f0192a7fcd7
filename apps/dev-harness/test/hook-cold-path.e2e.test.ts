// The cold path of the agent hook: no hook server (the first prompt after login or after its idle
// while), so the BUILT runner loads its core itself, with the core's V8 code cache. It must print
// exactly what the warm server prints, and a cache file that is damaged, truncated or another
// core's must never cost the answer (V8 aborts the process on a damaged one it is handed). Real
// processes against the emulator over HTTP; who answered is read from the run log. A cold
// UserPromptSubmit loads the lean prompt core (hook-runner-prompt-<build>.cjs): it must answer and
// record exactly as the full core does, on both faces, and a missing or broken one costs nothing.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HOOK_SERVER_VARIABLE, hookServerStatus, runnerBuild } from '@graphiti-memory/agent-hooks';
import { hookRunnerFile } from '@graphiti-memory/agent-hooks/runner-files';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { saidOnceFile, sharedStateFiles } from '@graphiti-memory/memory-node-storage';
import { additionalContext, installWithFact as installWithFactAt, loggedRuns, runNode, waitFor, type ProcessRun } from './hook-processes.js';
import { endHookTest, ensureBuilt, startHookTest, type HookTest } from './hook-server-fixture.js';

const runner = hookRunnerFile();
const COLD = { [HOOK_SERVER_VARIABLE]: 'off' };

let test: HookTest;
let sessions = 0;

/** A UserPromptSubmit of a new session each time (say-it-once would leave a repeated one empty). */
function prompt(script: string, env: NodeJS.ProcessEnv = {}, sessionId = `session-${++sessions}`): Promise<ProcessRun> {
  const input = { session_id: sessionId, transcript_path: path.join(test.root, 'none.jsonl'), cwd: test.workspace, hook_event_name: 'UserPromptSubmit', prompt: 'Which package manager do we use here?' };
  return runNode(test, [script, '--event', 'UserPromptSubmit'], JSON.stringify(input), { env });
}

async function lastRun(): Promise<{ outcome: string; via?: string } | undefined> {
  return (await loggedRuns(test.stateDir)).at(-1);
}

function installWithFact(emulator: RunningEmulator = test.emulator): Promise<void> {
  return installWithFactAt(test, emulator);
}

/** The built runner's files (entry, core, lean prompt core) copied to a folder of this test: its code caches are this test's own. */
async function copiedRunner(): Promise<{ entry: string; folder: string; promptCore: string }> {
  const build = runnerBuild(runner);
  if (build === undefined) throw new Error('dist/hook-runner.cjs names no hook-runner-core-*.cjs beside it: build agent-hooks');
  const folder = path.join(test.root, 'runner');
  await fs.mkdir(folder, { recursive: true });
  for (const core of [`hook-runner-core-${build}.cjs`, `hook-runner-prompt-${build}.cjs`]) await fs.copyFile(path.join(path.dirname(runner), core), path.join(folder, core));
  await fs.copyFile(runner, path.join(folder, 'hook-runner.cjs'));
  return { entry: path.join(folder, 'hook-runner.cjs'), folder, promptCore: path.join(folder, `hook-runner-prompt-${build}.cjs`) };
}

/** Which cores wrote a code cache in `folder` (`core`, `prompt`): which ones ran. */
async function coresRun(folder: string): Promise<string[]> {
  return (await fs.readdir(folder)).flatMap((name) => /^hook-runner-(core|prompt)-.+\.cache$/.exec(name)?.[1] ?? []).sort();
}

/** What a prompt of `sessionId` left behind, without times and session-specific groups: run log, said-once record, audit lines. */
async function recordsOf(endpoint: string, sessionId: string, auditFrom: number): Promise<unknown> {
  const run = (await loggedRuns(test.stateDir)).at(-1) as Record<string, unknown> | undefined;
  const said = JSON.parse(await fs.readFile(saidOnceFile(test.stateDir, endpoint, sessionId), 'utf8')) as unknown;
  const audit = (await fs.readFile(sharedStateFiles(test.stateDir).auditLog, 'utf8'))
    .split('\n')
    .filter((line) => line !== '')
    .slice(auditFrom)
    .map((line) => {
      const { at: _at, groupIds, ...rest } = JSON.parse(line) as Record<string, unknown> & { groupIds?: string[] };
      return { ...rest, groups: groupIds?.length };
    })
    .sort((left, right) => JSON.stringify(left).localeCompare(JSON.stringify(right)));
  return { run: { event: run?.['event'], outcome: run?.['outcome'], via: run?.['via'], build: run?.['build'] }, said, audit };
}

async function auditLines(): Promise<number> {
  return (await fs.readFile(sharedStateFiles(test.stateDir).auditLog, 'utf8').catch(() => '')).split('\n').filter((line) => line !== '').length;
}

async function cacheFileIn(folder: string): Promise<string> {
  const caches = (await fs.readdir(folder)).filter((name) => name.endsWith('.cache'));
  expect(caches).toHaveLength(1);
  return path.join(folder, caches[0] ?? '');
}

/** Answered in the runner's own process with the promoted fact, cleanly. */
async function expectColdAnswer(run: ProcessRun, expected: string): Promise<void> {
  expect(run, run.stderr).toMatchObject({ exitCode: 0, stderr: '' });
  expect(run.stdout).toBe(expected);
  expect(await lastRun()).toMatchObject({ outcome: 'context', via: 'in-process' });
}

beforeAll(() => ensureBuilt(), 300_000);

beforeEach(async () => {
  test = await startHookTest('hook-cold-');
});

afterEach(() => endHookTest(test));

describe('the cold hook path', () => {
  it('prints exactly what the warm hook server prints for the same prompt', async () => {
    await installWithFact();
    const cold = await prompt(runner, COLD);
    expect(cold.exitCode).toBe(0);
    expect(await lastRun()).toMatchObject({ outcome: 'context', via: 'in-process' });
    expect(additionalContext(cold)).toContain('We always use pnpm');
    // The first event with the server allowed answers in-process and starts it; the next is served warm.
    await prompt(runner);
    await waitFor(async () => {
      const build = runnerBuild(runner);
      return build !== undefined && (await hookServerStatus(test.env, build)).running;
    }, 'the hook server to start');
    const warm = await prompt(runner);
    expect(await lastRun()).toMatchObject({ outcome: 'context', via: 'server' });
    expect(warm.stdout).toBe(cold.stdout);
  });

  it('ignores a damaged, truncated or foreign code cache: same answer, exit 0, a good cache written again', async () => {
    await installWithFact();
    const { entry, folder } = await copiedRunner();
    const first = await prompt(entry, COLD);
    expect(await lastRun()).toMatchObject({ outcome: 'context', via: 'in-process' });
    const expected = first.stdout;
    expect(additionalContext(first)).toContain('We always use pnpm');
    const cacheFile = await cacheFileIn(folder);
    if (process.platform !== 'win32') expect((await fs.stat(cacheFile)).mode & 0o777).toBe(0o600);
    const good = await fs.readFile(cacheFile);
    await expectColdAnswer(await prompt(entry, COLD), expected);

    const damaged = Buffer.from(good);
    // Bytes in the middle of V8's data, its header and the length intact: V8 would take it and abort.
    for (let index = Math.floor(damaged.length / 3); index < damaged.length / 3 + 70_000; index += 37) damaged[index] = (damaged[index] ?? 0) ^ 0x5a;
    const otherCore = new vm.Script('module.exports = { answer: 42 };').createCachedData();
    const foreign = Buffer.concat([createHash('sha256').update(otherCore).digest(), otherCore]);
    for (const [what, bytes] of [
      ['damaged', damaged],
      ['truncated', good.subarray(0, 1_000)],
      ['empty', Buffer.alloc(0)],
      ["another core's", foreign],
    ] as const) {
      await fs.writeFile(cacheFile, bytes, { mode: 0o600 });
      await expectColdAnswer(await prompt(entry, COLD), expected);
      // Replaced after the event by a cache of this core, which the next run uses.
      expect((await fs.readFile(cacheFile)).equals(bytes), `the ${what} cache to be replaced`).toBe(false);
      await expectColdAnswer(await prompt(entry, COLD), expected);
    }
  });

  for (const face of ['rest', 'mcp'] as const) {
    it(`runs a cold prompt in the lean prompt core, with the answer and records of the full core (${face})`, async () => {
      const emulator = face === 'rest' ? test.emulator : await startEmulator({ processingDelayMs: 1, face: 'mcp' });
      try {
        await installWithFact(emulator);
        const { entry, folder, promptCore } = await copiedRunner();
        let audited = await auditLines();
        const lean = await prompt(entry, COLD, 'lean-session');
        expect(await coresRun(folder)).toEqual(['prompt']);
        await expectColdAnswer(lean, lean.stdout);
        expect(additionalContext(lean)).toContain('We always use pnpm');
        const leanRecords = await recordsOf(emulator.url, 'lean-session', audited);
        // Without the lean core the full core runs the same event (and writes its own cache).
        await fs.rm(promptCore);
        audited = await auditLines();
        const full = await prompt(entry, COLD, 'full-session');
        expect(await coresRun(folder)).toEqual(['core', 'prompt']);
        await expectColdAnswer(full, lean.stdout);
        expect(await recordsOf(emulator.url, 'full-session', audited)).toEqual(leanRecords);
        expect(leanRecords).toMatchObject({ run: { event: 'UserPromptSubmit', outcome: 'context', via: 'in-process' }, audit: expect.arrayContaining([expect.objectContaining({ kind: 'search', face })]) });
      } finally {
        if (emulator !== test.emulator) await emulator.close();
      }
    });
  }

  it('a lean prompt core that does not load (not JavaScript, or throwing) leaves the event to the full core, silently', async () => {
    await installWithFact();
    const { entry, folder, promptCore } = await copiedRunner();
    const expected = (await prompt(entry, COLD)).stdout;
    expect(additionalContext({ stdout: expected } as ProcessRun)).toContain('We always use pnpm');
    for (const broken of ['this is not JavaScript {', "throw new Error('a broken build');", '']) {
      await fs.writeFile(promptCore, broken);
      await expectColdAnswer(await prompt(entry, COLD), expected);
    }
    expect(await coresRun(folder)).toContain('core');
  });
});

// What node loads for a cold prompt: none of the built-ins a prompt never uses, each cut from the
// cold path on purpose (each cost every first prompt ms): node:http2 (undici's HTTP/2 client, loaded
// on its first use: undici-agent-only in tooling/build-support), node:child_process (git facts load
// it where git runs; a prompt reads the cached remote), node:zlib (journal checksums, on first use).
// And the cores are ASCII: one non-ASCII character (a regular expression's « or …, which esbuild
// leaves as written) makes node read the whole 1.4 MB core into a two-byte string on every cold start.
describe('what a cold prompt loads', () => {
  it('answers with the recalled fact without loading node:http2, node:child_process or node:zlib', async () => {
    await installWithFact();
    // Preloaded into the hook's node: writes the built-ins it loaded (node's own list) when it exits.
    const preload = path.join(test.root, 'loaded-builtins.cjs');
    const listed = path.join(test.root, 'loaded-builtins.json');
    await fs.writeFile(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(listed)}, JSON.stringify(process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length)))));\n`,
    );
    const run = await prompt(runner, { ...COLD, NODE_OPTIONS: `--require ${preload}` });
    await expectColdAnswer(run, run.stdout);
    expect(additionalContext(run)).toContain('We always use pnpm');
    const loaded = JSON.parse(await fs.readFile(listed, 'utf8')) as string[];
    // The list names what the hook did load (the answer came over HTTP).
    expect(loaded).toEqual(expect.arrayContaining(['http', 'net', 'fs']));
    expect(['http2', 'child_process', 'zlib'].filter((name) => loaded.includes(name))).toEqual([]);
  });

  it('loads cores that are ASCII only', async () => {
    const build = runnerBuild(runner);
    expect(build).toBeDefined();
    for (const kind of ['core', 'prompt']) {
      const bytes = await fs.readFile(path.join(path.dirname(runner), `hook-runner-${kind}-${build ?? ''}.cjs`));
      const first = bytes.findIndex((byte) => byte > 0x7f);
      expect(first, `hook-runner-${kind}: a non-ASCII byte at ${first}: ${bytes.subarray(Math.max(0, first - 40), first + 10).toString('utf8')}`).toBe(-1);
    }
  });
});
