// What a cold UserPromptSubmit (no hook server: the runner loads its lean prompt core) makes node
// load: none of the built-ins the prompt never uses. Each is cut from the cold path on purpose and
// each cost the hook ms on every first prompt: node:http2 (undici's HTTP/2 client, loaded on its
// first use: undici-agent-only in tooling/build-support), node:child_process (git facts load it where
// git runs; a prompt reads the cached remote) and node:zlib (journal checksums load it on first use).
// The BUILT runner against the emulator, a real process; node itself lists what it loaded. And the
// cores are ASCII: one non-ASCII character (a regular expression's « or …, which esbuild leaves as
// written) makes node read the whole 1.4 MB core into a two-byte string on every cold start.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HOOK_SERVER_VARIABLE, runnerBuild } from '@graphiti-memory/agent-hooks';
import { hookRunnerFile } from '@graphiti-memory/agent-hooks/runner-files';
import { readConfigFile, updateConfigFile, userConfigPath } from '@graphiti-memory/memory-node-storage';
import { additionalContext, harnessSucceeds, loggedRuns, runNode } from './hook-processes.js';
import { endHookTest, ensureBuilt, startHookTest, type HookTest } from './hook-server-fixture.js';

const runner = hookRunnerFile();
/** Built-ins a cold prompt must not load. */
const NOT_ON_THE_COLD_PATH = ['http2', 'child_process', 'zlib'];

let test: HookTest;

beforeAll(() => ensureBuilt(), 300_000);

beforeEach(async () => {
  test = await startHookTest('hook-cold-builtins-');
});

afterEach(() => endHookTest(test));

describe('a cold prompt', { timeout: 90_000 }, () => {
  it('answers with the recalled fact without loading node:http2, node:child_process or node:zlib', async () => {
    const { stateDir, workspace, emulator } = test;
    await harnessSucceeds(test, ['hooks', 'install', '--target', 'claude', '--endpoint', emulator.url, '--state-dir', stateDir]);
    await harnessSucceeds(test, ['promote', 'We always use pnpm as the package manager in this repository.', '--kind', 'decision', '--scope', 'workspace', '--endpoint', emulator.url, '--state-dir', stateDir, '--workspace', workspace]);
    await emulator.idle();
    // A busy machine must not turn the answer into a missed deadline: this checks loads, not time.
    const file = userConfigPath(test.env);
    const current = await readConfigFile(file);
    await updateConfigFile(file, { recall: { ...(current.ok ? current.values.recall : {}), timeoutMs: 5_000 } });
    // Preloaded into the hook's node: writes the built-ins it loaded when it exits.
    const preload = path.join(test.root, 'loaded-builtins.cjs');
    const listed = path.join(test.root, 'loaded-builtins.json');
    await fs.writeFile(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(listed)}, JSON.stringify(process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length)))));\n`,
    );
    const input = { session_id: 'cold-builtins', transcript_path: path.join(test.root, 'none.jsonl'), cwd: workspace, hook_event_name: 'UserPromptSubmit', prompt: 'Which package manager do we use here?' };
    const run = await runNode(test, [runner, '--event', 'UserPromptSubmit'], JSON.stringify(input), { env: { [HOOK_SERVER_VARIABLE]: 'off', NODE_OPTIONS: `--require ${preload}` } });
    expect(run, run.stderr).toMatchObject({ exitCode: 0, stderr: '' });
    expect(additionalContext(run)).toContain('We always use pnpm');
    expect((await loggedRuns(stateDir)).at(-1)).toMatchObject({ outcome: 'context', via: 'in-process' });
    const loaded = JSON.parse(await fs.readFile(listed, 'utf8')) as string[];
    // The list is node's own: it names the modules the hook did load (the answer came over HTTP).
    expect(loaded).toEqual(expect.arrayContaining(['http', 'net', 'fs']));
    expect(NOT_ON_THE_COLD_PATH.filter((name) => loaded.includes(name))).toEqual([]);
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
