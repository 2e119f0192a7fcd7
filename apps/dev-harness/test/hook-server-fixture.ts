// What the hook e2e tests share: the built runner, a temporary HOME per test, an emulator per test,
// and stopping the hook servers (of one or more runner builds) a test started. A runner starts its
// server detached after answering, so one may still be coming up when the test ends: wait a little
// for one before concluding there is none, and stop until none answer.
import { execFile } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HOOK_SERVER_PROTOCOL, pingHookServer, runningHookServers, stopHookProcesses } from '@graphiti-memory/agent-hooks';
import { hookRunnerFile } from '@graphiti-memory/agent-hooks/runner-files';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { userConfigPath } from '@graphiti-memory/memory-node-storage';

/** apps/dev-harness. */
export const packageFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The built harness CLI, as users run it. */
export const harnessBinary = path.join(packageFolder, 'bin', 'graphiti-harness.js');

export async function stopHookServer(env: NodeJS.ProcessEnv, settleMs = 2_000): Promise<void> {
  const deadline = Date.now() + settleMs;
  let stopped = 0;
  for (let attempt = 0; attempt < 100; attempt++) {
    const servers = await runningHookServers(env);
    if (servers.length === 0 && (stopped > 0 || Date.now() > deadline)) return;
    for (const server of servers) {
      await pingHookServer(server, server.build, HOOK_SERVER_PROTOCOL, 'stop', 200);
      stopped++;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const build = (cwd: string) => new Promise<void>((resolve, reject) => execFile('pnpm', ['run', 'build'], { cwd }, (error) => (error ? reject(error) : resolve())));

/** Builds the harness when its CLI is missing (a test run without turbo's build first). */
export async function ensureHarnessBuilt(): Promise<void> {
  if (!existsSync(path.join(packageFolder, 'dist', 'bin.js'))) await build(packageFolder);
}

/** Builds the hooks package and the harness when the runner or the CLI is missing. */
export async function ensureBuilt(): Promise<void> {
  const runner = hookRunnerFile();
  // The runner lies in <agent-hooks>/dist/.
  if (!existsSync(runner)) await build(path.dirname(path.dirname(runner)));
  await ensureHarnessBuilt();
}

export interface HookTestHome {
  readonly root: string;
  readonly home: string;
  readonly stateDir: string;
  readonly workspace: string;
  /** The environment hooks run in: this HOME and config folder, never the user's. */
  readonly env: NodeJS.ProcessEnv;
}

/** A fresh temporary folder holding a HOME, a workspace and (once used) a state and a config folder. */
export async function temporaryHookHome(prefix: string): Promise<HookTestHome> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  const home = path.join(root, 'home');
  const workspace = path.join(root, 'repo');
  await fs.mkdir(home, { recursive: true });
  await fs.mkdir(workspace, { recursive: true });
  const env = { PATH: process.env['PATH'], HOME: home, USERPROFILE: home, GRAPHITI_MEMORY_CONFIG_DIR: path.join(root, 'config'), NO_COLOR: '1' };
  return { root, home, stateDir: path.join(root, 'state'), workspace, env };
}

export interface HookTest extends HookTestHome {
  /** This test's own emulator (processing delay 1 ms), reached over HTTP. */
  readonly emulator: RunningEmulator;
}

/** What each hook e2e test starts with: its emulator and a fresh temporary HOME. */
export async function startHookTest(prefix: string): Promise<HookTest> {
  const emulator = await startEmulator({ processingDelayMs: 1 });
  return { ...(await temporaryHookHome(prefix)), emulator };
}

/** Stops the test's hook servers and its emulator, then removes its folder. */
export async function endHookTest(test: HookTest): Promise<void> {
  // Each test's HOME and config folder get their own hook server: stop it with the test.
  await stopHookServer(test.env);
  await test.emulator.close();
  // A drainer may stay for an open session digest (until it falls idle): ask it to leave.
  await stopHookProcesses(test.env, test.stateDir, 2_000);
  // A detached drainer may still be writing; give it a moment, then remove everything.
  await new Promise((resolve) => setTimeout(resolve, 200));
  await fs.rm(test.root, { recursive: true, force: true });
}

/**
 * `capture.granularity: turn` in the test's user config (call it after `hooks install`, which
 * writes the file): for tests of per-message capture mechanics; session digests have their own.
 */
export async function capturePerMessage(test: HookTestHome): Promise<void> {
  const file = userConfigPath({ GRAPHITI_MEMORY_CONFIG_DIR: test.env['GRAPHITI_MEMORY_CONFIG_DIR'] ?? '' });
  const current = JSON.parse(await fs.readFile(file, 'utf8')) as { capture?: Record<string, unknown> };
  await fs.writeFile(file, JSON.stringify({ ...current, capture: { ...current.capture, granularity: 'turn' } }));
}
